"""Outcome: the verdict a check comes to, one of five words.

A str Enum, so it is written to results.json, Gradescope's files and the plan cache as the
word itself, and compares and hashes equal to it: a results file read back gives the same
verdicts. Use the members; the words are what is stored.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Outcome"]


class Outcome(str, Enum):
    PASSED = "passed"  # full marks
    FAILED = "failed"  # no marks, or a fraction for a mistake that has no partial credit of its own
    PARTIAL = "partial"  # some of the points: a part of the answer is right
    UNDECIDED = "undecided"  # no points yet: left for a person to check (an exact answer SymPy could not settle)
    ERROR = "error"  # the grader failed on this check: not the student's doing

    def __str__(self) -> str:
        return self.value

    @classmethod
    def read(cls, word, default: "Outcome" = None) -> "Outcome":
        """The outcome a stored word names; ``default`` (FAILED) for anything else."""
        try:
            return cls(word)
        except ValueError:
            return default or cls.FAILED
