"""The user's own files: written whole or not at all, 0600 in folders 0700.

The plan cache and a learner's progress (cli/state.py) both write here; this module imports
nothing of the grader's, so that ``attn-grade list`` and ``hint`` start without NumPy.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(folder: Path, name: str, text: str) -> bool:
    """Write ``folder/name`` whole or not at all (a reader never sees half a file): a file 0600
    (mkstemp's) in a folder made owner-only (``private_folder``)."""
    try:
        private_folder(folder)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, folder / name)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def private_folder(folder: Path) -> None:
    """Make ``folder`` 0700, and its parent (the user's cache folder) too when it has to be made:
    what the cache holds (plans, verdicts, a learner's progress and the folders it names) is the
    user's alone. A folder of the user's that an earlier version left open to others is closed."""
    folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    st = folder.stat()
    if stat.S_IMODE(st.st_mode) != 0o700 and st.st_uid == os.geteuid():
        os.chmod(folder, 0o700)
