"""What a batch writes in OUT, and how: never half a file, never a name a student chose raw.

    OUT/students/<id>/results.json   one per student (Gradescope's shape)
    OUT/gradebook.csv                one row per student: a column per exercise, the total, and
                                     "needs a person" when any check waits for one (see below)
    OUT/.sources/<id>/               sources a layout took from what was handed in

Results go under students/ so that no student folder, whatever its name
("gradebook.csv", ".sources"), can land on another output. ``<id>`` is the
folder name as handed in, with what could not be written plainly escaped: bytes
that are not UTF-8 as ``\\xff``, control characters likewise, a backslash as
``\\\\``; the escape is one to one, so two folders never share an id. In
gradebook.csv a cell that a spreadsheet would run as a formula (one starting
with = + - @ or |, after any blanks, in plain or full-width form; or with a tab
or a carriage return) is prefixed with a quote, as OWASP's guidance on CSV
injection says (``formula_like``).

A check SymPy could not settle waits for a person (grading/results.py): its
points are not in the student's total yet. When any student of the gradebook
has such a check, gradebook.csv ends with a column ``needs a person`` that names,
per student, the exercises whose points are pending and how many
("hand_scores: 0.5 points"), empty for the others; without one, the columns
are as always.

What is written in OUT is its owner's alone, files 0600 and folders 0700, or,
shared with a group of graders to read (``attn-grade grade --group``), 0640 and
2750 (setgid: what is made inside keeps the group). ``grade`` settles OUT so when
it starts (classroom/gradescope/owner_only.py, ``settle``); every writer here then follows
the folder it writes in (``shared``), whatever the umask: ``report``, ``export``
and ``comment`` keep the sharing ``grade`` chose.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import stat
import tempfile
import unicodedata
from contextlib import contextmanager
from pathlib import Path

from .. import registry
from ..grading.results import CONTROL, points_text, waiting_in

WAITING_COLUMN = "needs a person"  # gradebook.csv's last column, when any check waits for a person
STUDENTS = "students"
SOURCES = ".sources"
FORMULA_STARTS = ("=", "+", "-", "@", "|", "\t", "\r")  # after NFKC (full-width forms) and leading blanks
FILE, FOLDER = 0o600, 0o700  # the owner's alone: the default
GROUP_FILE, GROUP_FOLDER = 0o640, 0o2750  # shared with the folder's group, to read (grade --group)


def shared(folder: Path) -> bool:
    """Whether what is written in ``folder`` is for its group too: a setgid folder its group may read."""
    mode = os.stat(folder).st_mode
    return bool(mode & stat.S_ISGID and mode & stat.S_IRGRP)


def make_folders(folder: Path) -> None:
    """``mkdir -p folder``, each folder it makes 0700, or 2750 inside a shared one (``shared``)."""
    folder = Path(folder)
    if folder.is_dir():
        return
    make_folders(folder.parent)
    mode = GROUP_FOLDER if shared(folder.parent) else FOLDER
    try:
        os.mkdir(folder, mode & 0o777)
    except FileExistsError:
        if not folder.is_dir():
            raise
        return  # made meanwhile by another writer: theirs to set
    os.chmod(folder, mode)  # what the umask took, and the setgid bit mkdir leaves to the parent


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a reader sees the old file or the new one, never half; the file
    is 0600, or 0640 in a shared folder (``shared``), its group then the folder's."""
    path = Path(path)
    make_folders(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, GROUP_FILE if shared(path.parent) else FILE)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def student_id(name: str) -> str:
    """A folder name as read from the disk (undecodable bytes as surrogates) made safe to write and print."""
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (os.fsdecode's surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif 0xD800 <= code <= 0xDFFF or CONTROL.match(ch):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def results_path(out: Path, student: str) -> Path:
    """Where the results of ``student`` (an id from ``student_id``) go."""
    return Path(out) / STUDENTS / student / "results.json"


def stored(out: Path, student: str) -> dict:
    """What the results.json of ``student`` says it was made from (``extra_data``), or {} if none."""
    try:
        data = json.loads(results_path(out, student).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("tests"), list):
        return {}
    extra = data.get("extra_data")
    return extra if isinstance(extra, dict) else {"digest": None}


def formula_like(text: str) -> bool:
    """Whether a spreadsheet might read ``text`` as a formula (OWASP, "CSV Injection"): it starts, once
    leading blanks and invisible format characters are trimmed and full-width forms made plain (NFKC: "＝" is "="), with = + - @ or the
    DDE pipe |; or it starts with a tab or a carriage return."""
    if text.startswith(("\t", "\r")):
        return True
    plain = unicodedata.normalize("NFKC", text)
    start = next((i for i, c in enumerate(plain) if not (c.isspace() or unicodedata.category(c) == "Cf")), len(plain))
    return plain[start:].startswith(FORMULA_STARTS)


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula: one that ``formula_like``
    gets a leading quote."""
    return "'" + text if formula_like(text) else text


def gradebook_text(out: Path, students, slugs=None) -> str:
    """gradebook.csv for ``students`` (ids), from their results.json files: a column per exercise of
    ``slugs`` (default: all), then the total."""
    slugs = list(slugs or registry.BY_SLUG)
    rows, waiting = [], False
    for name in students:
        data = json.loads(results_path(out, name).read_text(encoding="utf-8"))
        per = dict.fromkeys(slugs, 0.0)
        for t in data["tests"]:
            if t.get("exercise") in per:
                per[t["exercise"]] += float(t["score"])
        row = [round(per[s], 6) for s in slugs]
        pending = pending_by_exercise(data, slugs)
        waiting = waiting or bool(pending)
        rows.append([csv_cell(name), *[f"{v:g}" for v in row], f"{round(sum(row), 6):g}",
                     "; ".join(f"{slug}: {points_text(p)}" for slug, p in pending.items())])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["student", *slugs, "total", *([WAITING_COLUMN] if waiting else [])])
    for row in rows:
        writer.writerow(row if waiting else row[:-1])
    return buf.getvalue()


def pending_by_exercise(data: dict, slugs) -> dict:
    """slug -> the points of a results.json that wait for a person's check, for the exercises of ``slugs``."""
    found = {}
    for slug, _, points in waiting_in(data):
        if slug in slugs:
            found[slug] = round(found.get(slug, 0.0) + points, 6)
    return found


def remove_torn_files(out: Path) -> None:
    """Temporary files a killed run left behind (write_atomic names them .<name>.<random>.tmp)."""
    if out.is_dir():
        for pattern in (".gradebook.csv.*.tmp", f"{STUDENTS}/*/.results.json.*.tmp", f"{SOURCES}/*/.*.tmp"):
            for path in out.glob(pattern):
                path.unlink(missing_ok=True)


LOCK = ".attn-grade.lock"  # in OUT: held by the command that writes OUT (``writing``)


class Busy(Exception):
    """OUT is being written by another attn-grade command; the message names it."""


_HELD: set = set()  # the descriptors of the locks this process holds (writing)


def _not_in_children() -> None:
    """In a process just forked (a job process, a helper): close the locks' descriptors, so that the
    lock is the parent's alone and ends with it, not with the last of its children to die."""
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


os.register_at_fork(after_in_child=_not_in_children)


@contextmanager
def writing(out: Path, command: str):
    """Hold OUT for the length of the block: an ``attn-grade grade`` or ``comment`` that would write
    the same OUT meanwhile raises Busy, naming the command that holds it. The lock (flock on
    OUT/.attn-grade.lock) ends with the process that holds it, however it ends, even by kill -9
    (processes it forks do not hold it); on a file system without locks the block runs unguarded."""
    out = Path(out)
    make_folders(out)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, GROUP_FILE if shared(out) else FILE)
    _HELD.add(fd)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "another attn-grade command"
            raise Busy(f"{out} is being written by {holder}; run this again when it has finished") from None
        except OSError:
            pass  # no locks here (some network file systems): as before there were any
        else:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{command} (process {os.getpid()})".encode(), 0)
        yield
    finally:
        _HELD.discard(fd)
        os.close(fd)
