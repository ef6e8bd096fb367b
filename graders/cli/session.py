"""A learner's grading session: one sandbox per folder, forked from the resident zygote.

The zygote (graders/sandbox/zygote.py, resident.py) starts first, and a folder's
sandbox is prepared on a second thread while this process imports the graders;
checks then replay their plans from disk (graders/grading/plancache.py), and a
file unchanged since it was at full marks shows its kept result (fullmarks.py).
Each folder is graded by grading/folder.py's Folder, as the batch and the Gradescope
runner grade a student. Used by check (and its second lane) and watch.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import replace
from pathlib import Path

from ..grading.settings import Settings
from ..grading.sandboxes import MAX_FILE_BYTES, MAX_FILES
from .where import Target, missing_file_hint


class Session:
    """Grades a learner's files, one sandbox per folder. A sandbox holds a copy of the
    folder's files as they were when it started: ``forget`` after they change."""

    def __init__(self, settings: Settings, *, timeout: float = 10.0, public_only: bool = False,
                 sympy: bool = True, fresh: bool = False):
        from ..grading.sandboxes import learner_zygote

        # The zygote imports NumPy (and SymPy, if a file may need it) while this process loads the graders;
        # the resident one (sandbox/resident.py) has done so already, for an earlier command.
        self.settings = settings
        self.zygote = learner_zygote(settings.resident_runtime)
        self.zygote.start(sympy=sympy)
        self.timeout, self.public_only, self.fresh = timeout, public_only, fresh
        self.folders, self.warming, self.kept = {}, {}, {}  # by resolved folder: Folder (grading/folder.py)
        self.protections = {}  # what the last sandbox that graded a file said of itself (inside/confine.py)

    def prepare(self, folder: Path) -> None:
        """Start the folder's sandbox on another thread (it waits for the zygote, not for us)."""
        self._kept(folder)  # the folder's files as they are before the sandbox takes its copy
        grading, key = self._folder(folder), Path(folder).resolve()
        if not grading.alive and key not in self.warming:
            thread = threading.Thread(target=_quietly, args=(grading.start,), daemon=True)
            thread.start()
            self.warming[key] = thread

    def _folder(self, folder: Path):
        from ..grading.folder import Folder

        from .fullmarks import FIRST

        key = Path(folder).resolve()
        if key not in self.folders:  # the sandbox takes the folder as fullmarks.py keys it: FIRST first
            self.folders[key] = Folder(key, timeout=self.timeout, plans=self.settings.plans, zygote=self.zygote,
                                       first=FIRST, student=self.student(key))
        return self.folders[key]

    def _kept(self, folder: Path):
        from .fullmarks import Kept

        key = Path(folder).resolve()
        if key not in self.kept:
            self.kept[key] = Kept.of(key, self.settings, hidden=not self.public_only, timeout=self.timeout)
        return self.kept[key]

    def student(self, folder: Path) -> str | None:
        """The id the learner set for ``folder`` (variant.py): their own numbers, where exercises vary."""
        from .state import State

        return State(folder, self.settings.cache).student

    def grade(self, target: Target):
        """The file's result: kept from its last full-marks check if nothing it depends on has
        changed since (fullmarks.py), else graded in the folder's sandbox."""
        from ..grading.engine import checks_of

        kept = self._kept(target.path.parent)
        found = None if self.fresh else kept.get(target.slug)
        if found is not None:
            return found
        # Load the graders while the sandbox is still starting on its thread.
        checks_of(target.slug, not self.public_only)
        thread = self.warming.pop(target.path.parent.resolve(), None)
        if thread is not None:
            thread.join()
        grading = self._folder(target.path.parent)
        result = grading.grade(target.slug, path=target.path, hidden=not self.public_only)
        if result.missing:
            explain_missing(result, target)
        self.protections = grading.report.protections or self.protections
        kept.put(target.slug, result, grading.report.protections)
        return result

    def forget(self, folder: Path) -> None:
        key = Path(folder).resolve()
        thread = self.warming.pop(key, None)
        if thread is not None:
            thread.join()  # never end a sandbox while another thread is still starting it
        self.kept.pop(key, None)  # its files changed: they are read again
        grading = self.folders.pop(key, None)
        if grading is not None:
            grading.close()

    def close(self) -> None:
        from ..grading.sandboxes import is_resident

        for folder in list(self.folders):
            self.forget(folder)
        if is_resident(self.zygote):
            self.zygote.close()  # it ends this command's sandboxes, and stays for the next


def mentions_sympy(paths) -> bool:
    """Whether any of the files names SymPy: only then does the zygote preload it (0.3 s or more).
    A file that imports it anyway still works: it imports SymPy itself."""
    for path in itertools.islice(paths, MAX_FILES):  # as many as a sandbox takes
        try:
            with open(path, "rb") as f:
                if b"sympy" in f.read(MAX_FILE_BYTES):  # the sandbox takes no larger file
                    return True
        except OSError:
            continue
    return False


def _quietly(fn):
    try:
        fn()
    except Exception:  # noqa: BLE001 - grading the file will meet the same problem and name it
        pass


def explain_missing(result, target: Target) -> None:
    """A missing file that has a near miss (Softmax.py): say which, in the problem and every check."""
    hint = missing_file_hint(target.path.parent, target.slug)
    if hint:
        old = result.problem
        result.problem = f"{old}; {hint}"
        result.checks = [replace(c, message=c.message.replace(old, result.problem)) for c in result.checks]
