"""What a test module builds once per test session, even across pytest-xdist's processes.

A graded class takes minutes; pytest-xdist may spread one module's tests over
several processes, each of which would build it again. ``once_per_session``
lets the first process to ask build it, under a file lock, while the others
wait and then read what it built.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path


def once_per_session(tmp_path_factory, name: str, build):
    """(folder, value): ``build(folder)`` run once per session in an empty ``folder`` named
    ``name``, and the JSON value it returned. Tests must not change what it built."""
    base = tmp_path_factory.getbasetemp()
    shared = Path(os.path.realpath(base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base))
    folder, saved = shared / name, shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not saved.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            saved.write_text(json.dumps(build(folder)))
        return folder, json.loads(saved.read_text())
