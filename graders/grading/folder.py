"""Grading one student's folder: the one way a student is graded, whoever asks.

``attn-grade check`` and ``watch`` (cli/session.py), the batch's job processes
(batch/run.py) and the Gradescope runner (classroom/gradescope/gradescope.py) each make a
``Folder`` and grade their files with it. A Folder holds the folder's sandbox
(the parent's handle, sandbox/sandbox.py's ``Sandbox``); the sandbox forks a
fresh process, the worker, for each exercise file (sandbox/inside/worker.py),
so one file cannot change another's grade. The checks replay their plans from
``plans`` on disk, or from memory when it is None (engine.caches).
"""

from __future__ import annotations

from pathlib import Path

from .. import registry
from ..kit import variants
from ..sandbox.sandbox import Sandbox
from ..sandbox.zygote import Jail, Limits
from .budget import Budget
from . import engine  # grade_file is looked up in engine at each call: one place to wrap it
from .engine import import_timeout, ungraded, with_notes


def variant_of(slug: str, student: str | None) -> int:
    """The variant ``student`` is graded on in exercise ``slug``: 0 (the seed's numbers) without a
    student or for an exercise whose numbers never vary."""
    exercise = registry.get(slug)
    return variants.of(exercise.assignment, student) if student and exercise.varies else 0


class Folder:
    """One student's folder and its sandbox. ``timeout``: wall seconds for one call of the
    student's functions. ``scratch``: the folder the sandbox may write in and sees the student's
    folder below (default: the folder itself); ``memory_mb``: the sandbox's memory. ``zygote``: the
    one to fork the sandbox from (default: this process's own). ``first``: the exercise files the
    sandbox takes before any other file of the folder (a folder may hold more than it takes).
    ``observe``: each result also keeps what its answers do (behaviour.py), for the class report.
    ``student``: the student's id in a course with variants (kit/variants.py): the exercises that
    vary are graded on that student's own numbers; None (the default): the seed's."""

    def __init__(self, folder, *, timeout: float = 10.0, plans: Path | None = None, scratch=None,
                 memory_mb: int = Limits.memory_mb, zygote=None, first=(), observe: bool = False,
                 student: str | None = None):
        self.folder, self.timeout, self.plans, self.observe = Path(folder), timeout, plans, observe
        self.student = student
        jail = Jail.for_folder(scratch, limits=Limits(memory_mb=memory_mb)) if scratch is not None else None
        self.sandbox = Sandbox(folder, jail=jail, zygote=zygote, import_timeout=import_timeout(timeout))
        for name in first:
            self.sandbox.want(name)

    @property
    def report(self):
        """What the sandbox said of itself (sandbox/report.py), once it has said it."""
        return self.sandbox.report

    @property
    def alive(self) -> bool:
        return self.sandbox.alive

    def start(self) -> None:
        """Start the sandbox now rather than at the first file (SandboxFailed if it cannot)."""
        self.sandbox.ensure()

    def grade(self, slug: str, *, path=None, hidden: bool = True, budget: Budget | None = None):
        """The ExerciseResult of ``path`` (default: the folder's SLUG.py) as exercise ``slug``."""
        path = self.folder / f"{slug}.py" if path is None else path
        return engine.grade_file(slug, path, hidden=hidden, call_timeout=self.timeout, sandbox=self.sandbox,
                                 budget=budget, cached=engine.caches(self.plans), observe=self.observe,
                                 variant=variant_of(slug, self.student))

    def grade_all(self, exercises, *, problems=None, notes=None, file_budget: float | None = None,
                  student_budget: float | None = None) -> list:
        """Every exercise of ``exercises``, in order. ``problems``: slug -> (message, missing) for
        what was handed in without an answer to grade; ``notes``: slug -> notes for the feedback.
        With ``student_budget`` (wall seconds for all the files) and ``file_budget`` (for each),
        the exercises left when time is spent score zero, saying so."""
        problems, notes = problems or {}, notes or {}
        student = Budget(student_budget, "one student") if student_budget is not None else None
        results = []
        for slug in (registry.get(s).slug for s in exercises):
            if slug in problems:
                results.append(ungraded(slug, *problems[slug]))
            elif student is not None and student.spent:
                results.append(ungraded(slug, student.message()))
            else:
                budget = student.within(file_budget, "one exercise file") if student is not None else None
                results.append(with_notes(self.grade(slug, budget=budget), notes.get(slug, ())))
        return results

    def close(self) -> None:
        """End the sandbox and everything it started."""
        self.sandbox.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
