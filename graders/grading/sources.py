"""What a grade depends on, as digests: ``code_digest``, the graders, every module of this
package, the reference solutions (where there are any: a student's copy has none) and the library
versions that decide examples and answers; and ``folder_digest``, the student's own files as the
sandbox takes them (sandbox/inside/files.py, its own rules and limits: the grader never reads more).

The batch grader (batch/digest.py) and a learner's kept results (cli/fullmarks.py) are both keyed by them.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from ..sandbox.inside.files import read_folder
from ..sandbox.zygote import installed

PACKAGE = Path(__file__).resolve().parents[1]
SOLUTIONS = PACKAGE.parent / "solutions"


def versions() -> dict:
    """The Python and library versions grades depend on, by name."""
    return {"python": sys.version.split()[0], **{name: installed(name) for name in ("numpy", "sympy", "hypothesis")}}


def regular_files(folder: Path, pattern: str):
    """(relative path, bytes) of the regular files under ``folder`` matching ``pattern``, sorted:
    for this package's own files only (a student's are read by ``folder_digest``)."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob(pattern)):
        if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
            yield path.relative_to(folder).as_posix(), path.read_bytes()


@lru_cache(maxsize=None)
def code_digest() -> str:
    """The graders, the machinery, the solutions and the library versions."""
    return _files_hash(hashlib.sha256(json.dumps(versions(), sort_keys=True).encode())).hexdigest()


@lru_cache(maxsize=None)
def files_digest() -> str:
    """This package's source and the reference solutions alone: the same wheel on every machine."""
    return _files_hash(hashlib.sha256()).hexdigest()


def _files_hash(h):
    # variants/: the digest tables a public check compares with (kit/variants.py) decide grades too
    for root, pattern in ((PACKAGE, "**/*.py"), (PACKAGE, "variants/*.txt"), (SOLUTIONS, "*")):
        for rel, data in regular_files(root, pattern):
            h.update(f"\0{root.name}/{rel}\0{len(data)}\0".encode())
            h.update(data)
    return h


def folder_digest(folder: Path, first=()) -> str:
    """Every file a graded run can read from a student's ``folder``: what the sandbox takes of it,
    by its own rules (sandbox/inside/files.py's ``read_folder``: the exercise files ``first``, then the
    folder's .py files, at most 64 of at most 1 MB each and 16 MB in all), and its notes on what it
    left out. A file over a limit counts by the note that names it, never by its bytes: the
    sandbox does not take it, whatever it holds."""
    files, _, notes = read_folder(os.fspath(folder), os.fspath(folder), tuple(first))
    h = hashlib.sha256(json.dumps(notes).encode())
    for rel, data in sorted(files.items()):
        h.update(f"\0{os.fsencode(rel).hex()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()
