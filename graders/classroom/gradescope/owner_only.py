"""The grader's own files, closed to the sandbox before a student's code runs (``close``), and
the results of ``attn-grade grade``, closed to the other users of the machine (``settle``).

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

OUT, where ``attn-grade grade`` writes every student's results and feedback,
the gradebook, the names of the hidden checks and the integrity flags, is
another user's to read only if the instructor says so: ``settle`` makes OUT and
all an earlier run left in it owner-only, or, with ``--group NAME``, readable
by that group of graders (folders 2750, setgid; files 0640; ``group_refusal``
says why a group will not do). What is written afterwards follows its folder
(outfolder/outfiles.py, ``write_atomic``). Unlike ``close``, ``settle`` changes no
file's owner, and it raises (Unsettled) rather than grade into an OUT it could
not close: the instructor gets the error, and no student is graded yet.
"""

from __future__ import annotations

import grp
import os
import stat
from pathlib import Path

from ...outfolder.outfiles import FILE, FOLDER, GROUP_FILE, GROUP_FOLDER


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


# ------------------------------------------------------------------ OUT
class Unsettled(Exception):
    """OUT, or something in it, could not be given the modes asked for; the message names it and why."""


def group_refusal(name: str) -> str | None:
    """Why OUT cannot be shared with group ``name`` (there is no such group, or the user is not in it
    and so cannot give files to it), or None if it can be (root may give files to any group)."""
    try:
        gid = grp.getgrnam(name).gr_gid
    except KeyError:
        return f"there is no group called {name!r} on this machine (getent group lists them)"
    if os.geteuid() != 0 and gid != os.getegid() and gid not in os.getgroups():
        return f"you are not in the group {name!r}, so you cannot give files to it (id -nG lists yours)"
    return None


def settle(out: Path, group: str | None = None) -> None:
    """Make OUT and everything in it owner-only (``group`` None: folders 0700, files 0600), or
    readable by ``group`` (folders 2750, files 0640, of that group); what an earlier run left with
    looser modes too. A symbolic link is left as it is, never followed. Raises Unsettled."""
    gid = grp.getgrnam(group).gr_gid if group else -1
    how = f"readable by the group {group}" if group else "owner-only"
    folder_mode, file_mode = (GROUP_FOLDER, GROUP_FILE) if group else (FOLDER, FILE)

    def unreadable(exc: OSError):
        raise Unsettled(f"could not look inside {exc.filename} to make it {how}: {exc.strerror or exc}")

    _settle_one(str(out), folder_mode, gid, how)  # first: then nobody else opens what is inside meanwhile
    for folder, dirs, files in os.walk(out, onerror=unreadable):  # never into a linked folder
        for name in dirs:
            _settle_one(os.path.join(folder, name), folder_mode, gid, how)
        for name in files:
            _settle_one(os.path.join(folder, name), file_mode, gid, how)


def _settle_one(path: str, mode: int, gid: int, how: str) -> None:
    """Give ``path`` the group ``gid`` (-1: leave it) and ``mode``, or raise Unsettled saying why not."""
    st = None
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return
        if gid != -1 and st.st_gid != gid:
            os.chown(path, -1, gid, follow_symlinks=False)
        elif stat.S_IMODE(st.st_mode) == mode:
            return
        os.chmod(path, mode)  # after chown, which may clear a setgid bit
    except OSError as exc:
        whose = (f"; it belongs to another user (uid {st.st_uid}): have them remove it, or grade into another "
                 f"--out folder") if st and st.st_uid != os.geteuid() else ""
        raise Unsettled(f"could not make {path} {how} (mode {mode:o}): {exc.strerror or exc}{whose}") from None
