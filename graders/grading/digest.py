"""What a student's grade depends on, as one digest: a result is reused only while it matches.

A result stays valid while nothing it was made from has changed: the files
handed in (or the answer cells taken from them), the graders and every module
of this package, the reference solutions, the library versions that decide
examples and answers, and the settings of the run. ``student_digest`` folds all
of these into one SHA-256; results.json keeps it (``extra_data.digest``), and
a student whose stored digest differs from today's is graded again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from ..sandbox.zygote import installed

PACKAGE = Path(__file__).resolve().parents[1]
SOLUTIONS = PACKAGE.parent / "solutions"


def _versions() -> dict:
    return {"python": sys.version.split()[0], **{name: installed(name) for name in ("numpy", "sympy", "hypothesis")}}


def _files(folder: Path, pattern: str):
    """(relative path, bytes) of the regular files under ``folder`` matching ``pattern``, sorted."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob(pattern)):
        if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
            yield path.relative_to(folder).as_posix(), path.read_bytes()


@lru_cache(maxsize=None)
def code_digest() -> str:
    """The graders, the machinery, the solutions and the library versions."""
    h = hashlib.sha256(json.dumps(_versions(), sort_keys=True).encode())
    for root, pattern in ((PACKAGE, "**/*.py"), (SOLUTIONS, "*")):
        for rel, data in _files(root, pattern):
            h.update(f"\0{root.name}/{rel}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def student_digest(folder: Path, settings: dict, problems: dict, notes: dict) -> str:
    """Everything one student's results depend on: their .py files (what the sandbox reads),
    how a layout read them (problems, notes), the settings of the run and ``code_digest``."""
    h = hashlib.sha256(code_digest().encode())
    h.update(json.dumps({"settings": settings, "problems": problems, "notes": notes}, sort_keys=True,
                        default=str).encode())
    for rel, data in _files(Path(folder), "*.py"):
        h.update(f"\0{os.fsencode(rel).hex()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()
