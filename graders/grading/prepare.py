"""Record every check once for this machine, before a learner's first check needs it.

A check replays a plan (plans.py): the calls it makes and what Hypothesis
drew, recorded against the reference solution. The first check on a machine
finds no plan on disk and records each one (about 2.5 s for all the exercises
on two cores, four times a later check). ``prepare`` records them ahead, into
the same folder and under the same keys as a check would (engine.py's
``_execute``). ``rehearse`` then grades a copy of the reference solutions in a
sandbox of its own, as a check grades a learner's files: that proves the
sandbox works on this machine, and leaves on disk what a check keeps of
answers it has seen (passes and verdicts, plancache.py), so a learner whose
answers are the reference's finds them too. ``python3 tasks.py setup`` runs
both through ``attn-grade prepare``.

Nothing here runs student code, and no grade can differ: a plan recorded here is
the plan the first check would have recorded (the same check, reference, versions
and key), and a pass or verdict is named by the exact answers it was given. A
plan whose key no longer matches (the graders or a library changed since) is
simply recorded again by the next check.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .engine import caches, checks_of, reference
from .folder import Folder
from .plancache import plan_key


@dataclass
class Prepared:
    """What ``prepare`` did for one exercise."""

    slug: str
    checks: int = 0  # checks with a plan, now on disk
    recorded: int = 0  # of which recorded now (the rest were on disk already)
    live: int = 0  # checks that cannot be recorded (they fail on the reference): always run live
    seconds: float = 0.0
    no_reference: bool = False  # a student's copy: no solutions, only the shipped public plans


def prepare(slugs, folder: Path | None, *, hidden: bool = True, each=None) -> list[Prepared]:
    """Record the plans of every check of ``slugs`` (public, and hidden with ``hidden``) into
    ``folder`` (a Settings' ``plans``), calling ``each(Prepared)`` after each exercise.
    Raises NoFolder when there is no folder the plans could be kept in."""
    cached = caches(folder)
    if cached.plans.store.folder is None:
        raise NoFolder(folder)
    done = []
    for slug in slugs:
        start, ref = time.perf_counter(), reference(slug)
        row = Prepared(slug, no_reference=ref is None)
        if ref is not None:
            solution = Path(ref.__file__)
            for fn in checks_of(slug, hidden):
                key = plan_key(fn.__module__, fn.__qualname__, solution)
                known = key in cached.plans.cache or (cached.plans.store.folder / f"{key}.json").is_file()
                plan = cached.plans.get(fn, ref, solution=solution)
                row.recorded += not known
                if plan is None:
                    row.live += 1
                else:
                    row.checks += 1
        row.seconds = time.perf_counter() - start
        done.append(row)
        if each is not None:
            each(row)
    return done


def rehearse(slugs, folder: Path | None, *, hidden: bool = True, each=None) -> tuple[list, object]:
    """Grade a copy of the reference solutions of ``slugs`` in a sandbox of this process's own,
    with the caches in ``folder``, calling ``each(result)`` after each: (the ExerciseResults, what
    the sandbox said of itself). The exercises without a reference here are left out."""
    found = [(s, reference(s)) for s in slugs]
    found = [(s, Path(ref.__file__)) for s, ref in found if ref is not None]
    results = []
    with tempfile.TemporaryDirectory(prefix="attn-grade-prepare-") as tmp:
        for slug, solution in found:
            shutil.copyfile(solution, Path(tmp, f"{slug}.py"))
        with Folder(tmp, plans=folder) as grading:
            for slug, _ in found:
                results.append(grading.grade(slug, hidden=hidden))
                if each is not None:
                    each(results[-1])
            return results, grading.report


class NoFolder(Exception):
    """The plans cannot be kept on disk: caching is off, or the folder is one a sandbox sees."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        super().__init__("plans are kept in memory only "
                         + ("(ATTN_GRADE_CACHE=off)" if folder is None else
                            f"({folder} is inside a folder the sandbox can see: set ATTN_GRADE_CACHE to "
                            "another folder)"))
