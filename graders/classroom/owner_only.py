"""The grader's own files, closed to the sandbox before a student's code runs: ``close``.

Gradescope runs run_autograder as root, and the sandbox runs a student's
code as another, unprivileged uid (the user nobody: sandbox/inside/confine.py). Where
Gradescope refuses namespaces, no private root hides the grader's files from
that code: the reference solutions, the hidden checks and what the grader
records (plans, with the verdicts and the passes beside them:
grading/plancache.py) must then be unreadable to it: owned by the grader,
folders 0700, files 0600. Code that runs as the grader's own uid (an ordinary
user without namespaces) is not kept out by modes; only its sandbox can.

``close`` never follows a symbolic link and never raises: it says what it
could not do, and grading goes on; run_autograder reports that to the
instructor (results.json's extra_data and its stdout), never to the student.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE, FOLDER = 0o600, 0o700


def grader_folders(attn: Path, plans: Path | None) -> list:
    """What to close: in ``attn`` (the unpacked archive's copy of this project), the solutions
    and hidden checks; and the plan cache's folders (``plans``, a Settings' ``plans``: none when
    it is off)."""
    folders = [Path(attn) / "solutions", Path(attn) / "graders" / "hidden"]
    if plans is not None:
        folders += [plans, plans.parent / "verdicts", plans.parent / "passes"]
    return folders


def close(folders) -> tuple:
    """(closed, problems): the folders of ``folders`` that exist, each with everything under it
    made owner-only, and what could not be done, in words naming the file and the cause."""
    closed, problems = [], []
    for top in map(Path, folders):
        if not os.path.lexists(top):
            continue  # nothing there to read (a cache not made yet is made 0700 by plancache)
        before = len(problems)
        if os.path.islink(top) or not top.is_dir():
            problems.append(f"{top} is not a folder but a link or a file: left as it is, not closed")
            continue
        _close_one(top, problems)  # the folder first: closed, nothing under it can be opened by others
        for folder, dirs, files in os.walk(top, onerror=lambda exc: problems.append(_why(exc.filename, exc))):
            for name in dirs + files:
                _close_one(Path(folder, name), problems)
        if len(problems) == before:
            closed.append(str(top))
    return closed, problems


def _close_one(path: Path, problems: list) -> None:
    """Make ``path`` the grader's and owner-only, or say in ``problems`` why not."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):  # os.walk does not enter one; chmod would change its target
            problems.append(f"{path} is a symbolic link: left as it is, and what it points to is not closed")
            return
        if st.st_uid != os.geteuid():  # another uid's file stays readable to that uid whatever its mode
            os.chown(path, os.geteuid(), os.getegid())
        os.chmod(path, FOLDER if stat.S_ISDIR(st.st_mode) else FILE)
    except OSError as exc:
        problems.append(_why(path, exc))


def _why(path, exc: OSError) -> str:
    return f"could not make {path} owner-only: {exc.strerror or exc}"
