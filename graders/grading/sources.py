"""What every grade depends on besides the student's own files: the graders, every module of
this package, the reference solutions (where there are any: a student's copy has none) and the
library versions that decide examples and answers, as one digest.

The batch grader (digest.py) and a learner's kept results (cli/kept.py) are both keyed by it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path

from ..sandbox.zygote import installed

PACKAGE = Path(__file__).resolve().parents[1]
SOLUTIONS = PACKAGE.parent / "solutions"


def _versions() -> dict:
    return {"python": sys.version.split()[0], **{name: installed(name) for name in ("numpy", "sympy", "hypothesis")}}


def regular_files(folder: Path, pattern: str):
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
        for rel, data in regular_files(root, pattern):
            h.update(f"\0{root.name}/{rel}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()
