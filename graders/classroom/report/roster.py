"""Who the students of a class report are: the roster's names ("Last, First") beside their ids.

The names come from an nbgrader course's gradebook (``attn-grade report --nbgrader-course``:
nbscores.py) or from a roster file: ``--roster FILE``, or ``OUT/roster.csv`` when there is one.
That file is a CSV with a header row, as ``nbgrader db student import`` takes it: a column ``id``
(or ``student``, ``student_id``) and ``last_name`` and ``first_name`` (or one ``name``); other
columns (``email``) are not read. Ids are matched as OUT writes them (outfolder/outfiles.py's
``student_id``). A name is text to show, never markup: control characters dropped, blanks made one
space, at most ``LONGEST`` characters, HTML-escaped and in a ``<bdi>`` so that right-to-left
letters in it cannot reorder what stands around it. A student no roster names keeps their id.
"""

from __future__ import annotations

import csv
import html
import io
import unicodedata
from pathlib import Path

from ...outfolder.outfiles import student_id

LARGEST = 4 << 20  # bytes: a roster of tens of thousands of students
LONGEST = 120  # characters of a name shown
ID_COLUMNS = ("id", "student_id", "student")


class RosterError(Exception):
    """The roster file cannot be read, or says nothing we can use."""


def clean(name) -> str:
    """A name as the report shows it (before escaping): one line, no control characters."""
    text = "".join(c for c in str(name) if unicodedata.category(c) != "Cc" or c.isspace())
    text = " ".join(text.split())
    return text if len(text) <= LONGEST else text[:LONGEST - 1] + "…"


def read(path: Path) -> dict:
    """{student id: "Last, First"} from a roster CSV; RosterError, naming the file, if it is no roster."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(LARGEST + 1)
    except OSError as exc:
        raise RosterError(f"{path} could not be read ({exc.strerror or exc})") from None
    if len(data) > LARGEST:
        raise RosterError(f"{path} is larger than {LARGEST >> 20} MB: not a roster")
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise RosterError(f"{path} is not a readable CSV file ({exc})") from None
    header = [h.strip().lower().replace(" ", "_").replace("-", "_") for h in (rows[0] if rows else [])]
    key = next((header.index(c) for c in ID_COLUMNS if c in header), None)
    parts = [header.index(c) for c in ("last_name", "first_name") if c in header]
    if not parts and "name" in header:
        parts = [header.index("name")]
    if key is None or not parts:
        raise RosterError(f"{path}: its first row should name the columns, 'id' and 'last_name', "
                          f"'first_name' (as nbgrader's 'db student import' takes them) or 'name'")
    names = {}
    for row in rows[1:]:
        if len(row) <= max(key, *parts) or not row[key].strip():
            continue
        name = clean(", ".join(row[i].strip() for i in parts if row[i].strip()))
        if name:
            names[student_id(row[key].strip())] = name
    return names


def of_out(out: Path, given: Path | None) -> dict:
    """The names of ``--roster FILE``, or of OUT/roster.csv when there is one, or none."""
    if given is not None:
        return read(given)
    return read(Path(out) / "roster.csv") if (Path(out) / "roster.csv").is_file() else {}


def who(student: str, names: dict) -> str:
    """The student as HTML: their name and, after it, their id; or only the id when no roster names them."""
    name = names.get(student)
    if not name:
        return html.escape(student)
    return f"<bdi>{html.escape(name)}</bdi> <span class=muted>{html.escape(student)}</span>"


def sort_key(student: str, names: dict) -> str:
    """What a table sorts the student by: the name, else the id."""
    return names.get(student) or student
