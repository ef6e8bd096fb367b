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
with = + - @, a tab or a carriage return) is prefixed with a quote, as OWASP's
guidance on CSV injection says.

A check SymPy could not settle waits for a person (grading/results.py): its
points are not in the student's total yet. When any student of the gradebook
has such a check, gradebook.csv ends with a column ``needs a person`` that names,
per student, the exercises whose points are pending and how many
("hand_scores: 0.5 points"), empty for the others; without one, the columns
are as always.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .. import registry
from ..grading.results import CONTROL, points_text, waiting_in

WAITING_COLUMN = "needs a person"  # gradebook.csv's last column, when any check waits for a person
STUDENTS = "students"
SOURCES = ".sources"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a reader sees the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # as open() would make it, not mkstemp's 0600
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


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


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
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
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
