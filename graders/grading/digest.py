"""What a student's grade depends on, as one digest: a result is reused only while it matches.

A result stays valid while nothing it was made from has changed: the files
handed in (or the answer cells taken from them), the graders and every module
of this package, the reference solutions, the library versions that decide
examples and answers, and the settings of the run. ``student_digest`` folds all
of these (the code through sources.py's ``code_digest``) into one SHA-256;
results.json keeps it (``extra_data.digest``), and a student whose stored
digest differs from today's is graded again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .sources import code_digest, regular_files


def student_digest(folder: Path, settings: dict, problems: dict, notes: dict) -> str:
    """Everything one student's results depend on: their .py files (what the sandbox reads),
    how a layout read them (problems, notes), the settings of the run and ``code_digest``."""
    h = hashlib.sha256(code_digest().encode())
    h.update(json.dumps({"settings": settings, "problems": problems, "notes": notes}, sort_keys=True,
                        default=str).encode())
    for rel, data in regular_files(Path(folder), "*.py"):
        h.update(f"\0{os.fsencode(rel).hex()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()
