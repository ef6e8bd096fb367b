"""Recorded plans on disk, so a check is recorded once per machine, not once per run.

A plan (plans.py) depends on the check's code, on what Hypothesis draws and
on the reference it was recorded with. Its key is a digest of all of it: the
check's grader (and, for a hidden check, its public twin), kit/, sandbox/ and
the record/replay code; the reference solution's source; the versions of
Hypothesis, NumPy, SymPy and Python. Change any of them and the key changes,
so an old plan is simply never found again.

Two places hold plans:

* the user's cache folder (settings.py's ``plans``: ``$ATTN_GRADE_CACHE``, else
  ``$XDG_CACHE_HOME`` or ``~/.cache``, then ``attn-grade/plans``; the command
  that starts hands it to engine.py's ``caches``): written by the grading process
  only, files 0600 in folders 0700 (``write_atomic``): the user's alone. It must
  lie outside everything a sandbox binds (system folders, Python and its
  libraries, the student's folder): ``usable`` refuses a folder inside one of
  those, and grading then keeps plans in memory only. ``ATTN_GRADE_CACHE=off``
  turns the disk off.
* ``plans/`` inside a student's copy of the package (public.py writes it):
  the public checks' plans, recorded by the instructor, read-only. They are
  inputs only (the calls a check makes and what Hypothesis drew), never an
  answer, and their key has no reference in it (students have none).

Beside the plans, in the same folder and under the same rule, are the settled
verdicts on exact answers (``verdicts/``, kit/remember.py), the replays that
passed (``passes/``, plans.py), the live runs that failed (``shrinks/``,
shrinks.py) and the reference's answers to a plan's calls as the class report
compares them (``expected/``, behaviour.py).

Plans are stored as tagged JSON (planfile.py), never pickle: a file someone
altered can at worst give a plan that fails to replay, and that check then
runs live (planfile's ``decode`` rejects anything it does not expect).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path

from ..kit.checks import submission_of
from ..sandbox.inside.jail import SYSTEM_FOLDERS
from ..sandbox.zygote import SITE_DIRS, installed
from .private import write_atomic
from .planfile import FORMAT, Unsupported, plan_from_json, plan_to_json

PACKAGE = Path(__file__).resolve().parents[1]  # graders/ (attn_checks/ in a student's copy)
SHIPPED = PACKAGE / "plans"
# What a plan depends on besides its own grader: every file of these folders, and these files.
SHARED_SOURCES = ("kit", "bounded", "sandbox", "grading/plans.py", "grading/plancache.py", "grading/planfile.py")



# ------------------------------------------------------------------ the key
def plan_key(module: str, name: str, solution: Path | None) -> str:
    """The key of check ``name`` of grader ``module`` (its dotted name), recorded against
    the reference at ``solution`` (None: a shipped plan, recorded by the instructor)."""
    rel = module.split(".", 1)[1] if "." in module else module  # the same in graders/ and attn_checks/
    h = hashlib.sha256()
    for part in (f"format {FORMAT}", rel, name, _sources_digest(rel), _solution_digest(solution), _versions()):
        h.update(part.encode("utf-8") + b"\0")
    return h.hexdigest()


def sources_of(rel_module: str) -> set:
    """The files, relative to the package, that a check of grader ``rel_module`` depends on."""
    files = {Path(*rel_module.split(".")).with_suffix(".py").as_posix()}
    if rel_module.startswith("hidden."):
        files.add(rel_module.split(".", 1)[1] + ".py")  # a hidden grader imports its public twin
    for item in SHARED_SOURCES:
        path = PACKAGE / item
        files |= ({p.relative_to(PACKAGE).as_posix() for p in path.glob("*.py")} if path.is_dir() else {item})
    table = Path("variants", rel_module.rpartition(".")[2] + ".txt")  # a grader's digest table (kit/variants.py)
    if (PACKAGE / table).is_file():
        files.add(table.as_posix())
    return files


@lru_cache(maxsize=None)
def _sources_digest(rel_module: str) -> str:
    files = sources_of(rel_module)
    h = hashlib.sha256()
    for rel in sorted(files):
        path = PACKAGE / rel
        h.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"(none)") + b"\0")
    return h.hexdigest()


def _solution_digest(path: Path | None) -> str:
    if path is None:
        return "shipped"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=None)
def _versions() -> str:
    found = [f"{dist} {installed(dist) or 'none'}" for dist in ("hypothesis", "numpy", "sympy")]
    return f"{sys.implementation.cache_tag}; " + "; ".join(found)


# ------------------------------------------------------------------ where
@lru_cache(maxsize=None)
def sandbox_visible() -> tuple[Path, ...]:
    """The folders a sandbox binds read-only (jail.SYSTEM_FOLDERS and the zygote's library
    folders: the standard library and zygote.SITE_DIRS), and the Python installations around
    them (the same for the life of the process: asked twice for every check)."""
    libs = sysconfig.get_paths()
    paths = {*SYSTEM_FOLDERS, *SITE_DIRS, sys.prefix, sys.base_prefix, sys.exec_prefix,
             *(libs[k] for k in ("stdlib", "platstdlib", "purelib", "platlib"))}
    return tuple(sorted({Path(os.path.realpath(p)) for p in paths if p and os.path.isdir(p)}))


def usable(folder: Path | None, student_folders=()) -> Path | None:
    """``folder`` if no sandbox can see it (not inside a bound folder nor a student's
    folder, and not holding one), else None."""
    if folder is None:
        return None
    real = Path(os.path.realpath(folder))
    for seen in [*sandbox_visible(), *(Path(os.path.realpath(f)) for f in student_folders)]:
        if real == seen or seen in real.parents:
            return None
    return folder


# ------------------------------------------------------------------ the store
class PlanStore:
    """Plans by key: read from the user's cache, then from the shipped ones; written to the cache."""

    def __init__(self, folder: Path | None, shipped: Path | None = SHIPPED):
        self.folder, self.shipped = folder, shipped

    def load(self, key: str, cache: bool = True):
        """(True, (calls, examples) or None) if stored (None: the check failed on the
        reference), else (False, None). ``cache=False``: only the shipped plans."""
        for where in (self.folder if cache else None, self.shipped):
            if where is None:
                continue
            try:
                data = json.loads((where / f"{key}.json").read_text(encoding="utf-8"))
                return True, plan_from_json(data, key, lazy=True)
            except FileNotFoundError:
                continue
            except (OSError, ValueError, KeyError, TypeError, IndexError, Unsupported):
                continue  # unreadable or altered: record again (or run live)
        return False, None

    def save(self, key: str, plan) -> bool:
        """Store ``plan`` (or None) under ``key``; False if it cannot be stored."""
        if self.folder is None:
            return False
        try:
            text = json.dumps(plan_to_json(plan, key), separators=(",", ":"))
        except Unsupported:
            return False
        return write_atomic(self.folder, f"{key}.json", text)


class NamedFiles:
    """Small JSON texts by (alphanumeric) name, one file each in ``folder``, beside the plans:
    written whole, by the grading process only."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def get(self, name: str):
        if self.folder is None or not name.isalnum():
            return None
        try:
            return (self.folder / f"{name}.json").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def put(self, name: str, text: str) -> bool:
        return self.folder is not None and name.isalnum() and write_atomic(self.folder, f"{name}.json", text)


class VerdictStore(NamedFiles):
    """Exact answers' settled verdicts (graders/kit/remember.py), in ``verdicts/``: one file each."""


class ExpectedStore(NamedFiles):
    """The reference's tokens for a plan's calls (behaviour.py), in ``expected/``: one file per
    plan, holding its own key (a file copied under another plan's name is not one)."""

    def load(self, plan: str, calls: int) -> list | None:
        try:
            data = json.loads(self.get(plan) or "null")
            tokens = data["tokens"] if isinstance(data, dict) and data.get("key") == plan else None
        except (ValueError, KeyError):
            return None
        ok = isinstance(tokens, list) and len(tokens) == calls and all(isinstance(t, str) for t in tokens)
        return tokens if ok else None

    def keep(self, plan: str, tokens: list) -> None:
        self.put(plan, json.dumps({"key": plan, "tokens": tokens}))


class PassStore(NamedFiles):
    """Replays that passed (plans.py, ``pass_name``), in ``passes/``: one file per plan, holding
    the names of its last ``KEEP`` passes (so the folder stays as small as the plans, however
    often a learner re-checks), and its own key (a file copied under another plan's name is
    not one)."""

    KEEP = 8

    def _names(self, plan: str) -> list:
        text = self.get(plan)
        try:
            data = json.loads(text) if text is not None else {}
            names = data.get("passes", []) if data.get("key") == plan else []
        except (ValueError, AttributeError):
            return []
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []

    def has(self, plan: str, name: str) -> bool:
        return name in self._names(plan)

    def add(self, plan: str, name: str) -> bool:
        names = [n for n in self._names(plan) if n != name][-(self.KEEP - 1):] + [name]
        return self.put(plan, json.dumps({"key": plan, "passes": names}))


def hidden_from(sub, folder: Path | None) -> bool:
    """Whether the student code behind ``sub`` (a Submission) cannot reach ``folder``: its
    sandbox confines the files it can open (a private root, or Landlock), as it says in its
    protections, and ``folder`` is not inside the student's own. ``sub`` may be wrapped (a batch's
    Budgeted, a Replay): the submission inside is asked."""
    sub = submission_of(sub)
    imported = getattr(sub, "imported", None)  # Submission.imported: how its import went
    return files_confined(getattr(imported, "protections", None)) and usable(folder, [sub.path.parent]) is not None


def files_confined(protections) -> bool:
    """Whether a sandbox that reports ``protections`` (inside/confine.py's flags) could open no file
    but the system's, Python's and its own."""
    return isinstance(protections, dict) and protections.get("files") is True
