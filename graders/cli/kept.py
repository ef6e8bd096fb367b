"""Full-marks results kept for the learner's next check, while nothing they depend on changes.

A learner re-checks everything after finishing one exercise; the others have not
changed since they reached full marks, or are still stubs. A file's result at
full marks, or a stub's (every check stopped at its NotImplementedError), is kept in
the user's cache (beside the plans: grading/plancache.py, where no sandbox can
see it, and only from a sandbox with a private root), one file per folder,
exercise and settings, with a digest of everything the grade depends on:

* the exercise file, and every .py file of the folder whose module name it
  mentions, and those they mention in turn, as the sandbox reads them. A
  mention is the name in the code (import softmax, from softmax import ...,
  a variable of that name) or a string that is the name or the file's name
  (importlib.import_module("softmax"), open("softmax.py")); comments and other
  strings are not. A file Python cannot read into words mentions them all;
* the graders, the machinery, the reference solutions and the library versions
  (grading/sources.py, ``code_digest``: what the batch grader keys its results by too);
* the settings: the exercise, all checks or the public ones, the call timeout.

While the digest is the same, ``check`` and ``watch`` show the kept result
instead of running the file again: grading is deterministic, so it is the
result a new run gives. No other result is kept: a failed check may have failed
on time (a call that timed out on a busy machine), and a file part-way done is
the one being worked on anyway. A folder holding a .py
file that is not a plain file (a symbolic link, whose target may change
unseen), one with a name that is not plain ASCII, or more .py files than a
sandbox takes keeps nothing.
``attn-grade check --fresh`` grades every file again.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tokenize
from pathlib import Path

from ..grading.plancache import NamedFiles, cache_folder, confined, usable
from ..grading.results import CheckResult, ExerciseResult
from ..grading.sources import code_digest
from ..sandbox.errors import NOT_WRITTEN
from ..sandbox.files import MAX_FILE_BYTES, MAX_FILES

FORMAT = 1


class Kept:
    """The kept results of one folder, with the folder's files as they are when it is made."""

    def __init__(self, folder: Path, *, hidden: bool, timeout: float):
        self.folder = Path(folder).resolve()
        self.settings = {"hidden": bool(hidden), "timeout": float(timeout)}
        plans = cache_folder()
        self.store = NamedFiles(usable(plans.parent / "kept", [self.folder]) if plans else None)
        self.sources = sources(self.folder)

    def get(self, slug: str) -> ExerciseResult | None:
        """The kept result of ``slug``, if its digest is today's."""
        files = files_digest(self.sources, slug)
        if files is None:
            return None
        try:
            data = json.loads(self.store.get(self._name(slug)) or "null")
            if not isinstance(data, dict) or data.get("digest") != self._digest(slug, files):
                return None
            return _result(data["result"], slug)
        except (ValueError, KeyError, TypeError):
            return None  # unreadable or altered: grade the file

    def put(self, slug: str, result: ExerciseResult, missing) -> bool:
        """Keep ``result`` if it is at full marks or a stub's, came from a confined sandbox
        (``missing``: what the sandbox said it lacked) and the folder's files are still those this
        was made with."""
        full = result.max_points > 0 and result.points >= result.max_points and all(c.passed for c in result.checks)
        stub = bool(result.checks) and all(c.points == 0 and NOT_WRITTEN in c.message for c in result.checks)
        if result.problem or not (full or stub) or not confined(missing):
            return False
        files = files_digest(self.sources, slug)
        if files is None or files_digest(sources(self.folder), slug) != files:  # saved meanwhile
            return False
        text = json.dumps({"format": FORMAT, "digest": self._digest(slug, files), "result": result.to_dict()})
        return self.store.put(self._name(slug), text)

    def _name(self, slug: str) -> str:
        key = json.dumps([os.fsencode(self.folder).hex(), slug, self.settings])
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def _digest(self, slug: str, files: str) -> str:
        key = json.dumps({"format": FORMAT, "slug": slug, "settings": self.settings, "files": files,
                          "code": code_digest()}, sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()


def sources(folder: Path) -> dict | None:
    """{module name: bytes} of the folder's .py files, or None where the sandbox's view of them
    cannot be told from here: a .py entry that is not a plain file, a name that is not plain
    ASCII, too many files, one too large, a folder that cannot be read."""
    found = {}
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".py")]
        if len(entries) > MAX_FILES:
            return None
        for entry in entries:
            if entry.is_symlink() or not entry.is_file(follow_symlinks=False) or not entry.name.isascii():
                return None
            data = Path(entry.path).read_bytes()
            if len(data) > MAX_FILE_BYTES:
                return None
            found[entry.name[:-3]] = data
    except OSError:
        return None
    return found


def files_digest(files: dict | None, slug: str) -> str | None:
    """A digest of ``slug``'s file and of every file it mentions, and they in turn; None
    without the file."""
    if files is None or slug not in files:
        return None
    seen, todo = {slug}, [slug]
    while todo:
        for name in mentions(files[todo.pop()], files):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    h = hashlib.sha256()
    for name in sorted(seen):
        h.update(f"\0{name}\0{len(files[name])}\0".encode() + files[name])
    return h.hexdigest()


def mentions(source: bytes, names) -> set:
    """The ``names`` (module names) that ``source`` mentions: as a name in the code, or as a
    string holding just the name or the name with .py; all of them if it cannot be read."""
    found = set()
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.NAME:
                word = tok.string
            elif tok.type == tokenize.STRING:
                word = tok.string.strip("rbuRBUfF").strip("\"'").removesuffix(".py")
            else:
                continue
            if word in names:
                found.add(word)
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, ValueError):
        return set(names)
    return found


def _result(data: dict, slug: str) -> ExerciseResult:
    checks = [CheckResult(**{k: c[k] for k in ("exercise", "name", "points", "max_points", "outcome",
                                                "message", "visibility")}) for c in data["checks"]]
    result = ExerciseResult(data["exercise"], data["title"], checks, data["problem"], data["missing"],
                            data["seconds"])
    if result.exercise != slug or not all(isinstance(c.points, (int, float)) for c in checks):
        raise ValueError("not this exercise's result")
    return result
