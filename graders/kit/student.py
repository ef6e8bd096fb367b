"""What a check may do with the student's code: ``Student``, a Protocol.

A check never holds the student's module. It is given a ``sub`` that calls the
student's functions by name with plain data, wherever they run, and gives back
the decoded answer or raises a StudentError (Raised, Missing, Timeout, Crashed).
These are such a ``sub`` (tests/test_layout.py holds it):

    sandbox.submission.Submission  the student's file in its sandbox (attn-grade check, the batch)
    grading.notebook.InProcess     the student's cells in a notebook's kernel (nbgrader)
    grading.budget.Budgeted        a Submission whose calls share a time budget
    grading.plans.Recording        the reference, while a check's calls are recorded
    grading.plans.Replay           recorded calls, answered from one batch of the student's answers

Because a recorded check is replayed, a check must be a deterministic function
of the answers it gets: the same answers, the same calls in the same order.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Student"]


@runtime_checkable
class Student(Protocol):
    """The student's code, as a check calls it."""

    def call(self, func: str, *args: Any, **kwargs: Any) -> Any:
        """``func(*args, **kwargs)`` in the student's code: its answer, decoded and validated
        (arrays, numbers, tuples, SymPy values), or a StudentError."""

    def call_full(self, func: str, *args: Any, **kwargs: Any) -> tuple[Any, tuple]:
        """Like ``call``; also which array arguments the call changed (positions, keyword
        names), as the grader judges them against its own copies of what it sent."""
