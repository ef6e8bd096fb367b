"""Full-marks results kept for the learner's next check, while nothing they depend on changes.

A learner re-checks everything after finishing one exercise; the others have not
changed since they reached full marks, or are still stubs. A file's result at
full marks, or a stub's (every check stopped at its NotImplementedError), is kept in
the user's cache (beside the plans: grading/plancache.py, where no sandbox can
see it, and only from a sandbox with a private root), one file per folder,
exercise and settings, with a digest of everything the grade depends on:

* every file the graded run could read: the folder as its sandbox takes it,
  read by the sandbox's own code (sandbox/inside/files.py, through sources.py's
  ``folder_digest``: the exercise files first, then the folder's .py files, at
  most 64 of at most 1 MB each, 16 MB in all; a file over a limit counts by the
  note that names it, never by its bytes). A file may reach another by any
  name (an import, a string, a name computed from os.listdir), so a change to
  any .py file of the folder grades every file again; what the sandbox does
  not take (notes.txt, a symbolic link, a 2 GB .py file's contents) does not;
* the graders, the machinery, the reference solutions and the library versions
  (grading/sources.py, ``code_digest``: what the batch grader keys its results by too);
* the settings: the exercise, all checks or the public ones, the call timeout.

While the digest is the same, ``check`` and ``watch`` show the kept result
instead of running the file again: grading is deterministic, so it is the
result a new run gives. No other result is kept: a failed check may have failed
on time (a call that timed out on a busy machine), and a file part-way done is
the one being worked on anyway.
``attn-grade check --fresh`` grades every file again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .. import registry
from ..grading.plancache import NamedFiles, files_confined, usable
from ..grading.results import CheckResult, ExerciseResult
from ..grading.sources import code_digest, folder_digest
from ..grading.sandboxes import NOT_WRITTEN

FORMAT = 2
# The files a learner's sandbox takes before any other (session.py asks for them), in this order.
FIRST = tuple(f"{e.slug}.py" for e in registry.EXERCISES)


class Kept:
    """The kept results of one folder, with the folder's files as they are when it is made."""

    def __init__(self, folder: Path, *, hidden: bool, timeout: float, plans: Path | None,
                 student: str | None = None):
        """``plans``: the plan cache's folder (a Settings' ``plans``; kept/ goes beside it), or
        None: nothing is kept."""
        self.folder = Path(folder).resolve()
        self.settings = {"hidden": bool(hidden), "timeout": float(timeout), **({"student": student} if student else {})}
        self.store = NamedFiles(usable(plans.parent / "kept", [self.folder]) if plans else None)
        self.files = folder_digest(self.folder, FIRST)

    @classmethod
    def of(cls, folder: Path, settings, *, hidden: bool, timeout: float) -> Kept:
        """The kept results of ``folder`` for the command's ``settings``, and for the student id the
        learner set there (variant.py): a result kept for one student's numbers is not another's."""
        from .state import State

        return cls(folder, hidden=hidden, timeout=timeout, plans=settings.plans,
                   student=State(folder, settings.cache).student)

    def get(self, slug: str) -> ExerciseResult | None:
        """The kept result of ``slug``, if its digest is today's."""
        try:
            data = json.loads(self.store.get(self._name(slug)) or "null")
            if not isinstance(data, dict) or data.get("digest") != self._digest(slug, self.files):
                return None
            return _result(data["result"], slug)
        except (ValueError, KeyError, TypeError):
            return None  # unreadable or altered: grade the file

    def put(self, slug: str, result: ExerciseResult, protections) -> bool:
        """Keep ``result`` if it is at full marks or a stub's, came from a sandbox whose files were
        confined (``protections``: the flags it reported; a private root or Landlock) and the
        folder's files are still those this was made with."""
        full = result.max_points > 0 and result.points >= result.max_points and all(c.passed for c in result.checks)
        stub = bool(result.checks) and all(c.points == 0 and NOT_WRITTEN in c.message for c in result.checks)
        if result.problem or not (full or stub) or not files_confined(protections):
            return False
        if folder_digest(self.folder, FIRST) != self.files:  # saved meanwhile
            return False
        text = json.dumps({"format": FORMAT, "digest": self._digest(slug, self.files), "result": result.to_dict()})
        return self.store.put(self._name(slug), text)

    def _name(self, slug: str) -> str:
        key = json.dumps([os.fsencode(self.folder).hex(), slug, self.settings])
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def _digest(self, slug: str, files: str) -> str:
        key = json.dumps({"format": FORMAT, "slug": slug, "settings": self.settings, "files": files,
                          "code": code_digest()}, sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()


def _result(data: dict, slug: str) -> ExerciseResult:
    checks = [CheckResult(**{k: c[k] for k in ("exercise", "name", "points", "max_points", "outcome",
                                                "message", "visibility")}) for c in data["checks"]]
    variant = data.get("variant", 0)  # to_dict keeps it only when not the seed's
    result = ExerciseResult(data["exercise"], data["title"], checks, data["problem"], data["missing"],
                            data["seconds"], variant=variant if type(variant) is int else 0)
    if result.exercise != slug or not all(isinstance(c.points, (int, float)) for c in checks):
        raise ValueError("not this exercise's result")
    return result
