"""What a student's grade depends on, as one digest: a result is reused only while it matches.

A result stays valid while nothing it was made from has changed: the files
handed in (or the answer cells taken from them), the graders and every module
of this package, the reference solutions, the library versions that decide
examples and answers, and the settings of the run. ``student_digest`` folds all
of these (through sources.py's ``code_digest`` and ``folder_digest``) into one
SHA-256; results.json keeps it (``extra_data.digest``), and a student whose
stored digest differs from today's is graded again.

The student's files count as the sandbox takes them, and are read only that
far: a 2 GB file in a student's folder is named, never read (sandbox/inside/files.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..grading.sources import code_digest, folder_digest


def student_digest(folder: Path, settings: dict, problems: dict, notes: dict, first=(), also=None) -> str:
    """Everything one student's results depend on: their folder as the sandbox takes it, with the
    exercise files ``first`` (as grade_student asks the sandbox), how a layout read them (problems,
    notes, and ``also``, what else it says the results depend on), the settings of the run and
    ``code_digest``."""
    h = hashlib.sha256(code_digest().encode())
    fed = {"settings": settings, "problems": problems, "notes": notes, **({"also": also} if also else {})}
    h.update(json.dumps(fed, sort_keys=True, default=str).encode())
    h.update(folder_digest(Path(folder), first).encode())
    return h.hexdigest()
