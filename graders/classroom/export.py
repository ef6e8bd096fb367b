"""``attn-grade export OUT --format canvas|csv``: grades in the form an LMS imports.

* ``canvas``: Canvas's gradebook CSV. The header row is Student, ID, SIS User
  ID, SIS Login ID, Section, then one column per assignment; the second row,
  "Points Possible", gives each assignment's points; then a row per student.
  Canvas matches a row to a student by one of its ID columns: our student id
  goes in the one ``--id-column`` names (SIS Login ID by default), and in
  Student. A column whose name matches no Canvas assignment makes a new one;
  to fill an existing assignment, name the column as Canvas's own export does,
  "Title (id)", with ``--column part1_scores="Part 1 (1234)"``.
* ``csv``: one row per student and assignment: student, assignment, score,
  max_score.

Scores are the raw points of OUT (late penalties live in nbgrader's own
gradebook and ``nbgrader export``). Cells that a spreadsheet would run as a
formula get a leading quote, as in gradebook.csv.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from .. import registry
from ..grading.outfiles import csv_cell, write_atomic
from . import analysis

ID_COLUMNS = ("ID", "SIS User ID", "SIS Login ID")


def per_assignment(klass: analysis.Class) -> tuple:
    """(assignments in teaching order, their points, student -> assignment -> score)."""
    names = [a for a in registry.ASSIGNMENTS if any(e.assignment == a for e in klass.exercises)]
    points = {a: sum(e.points for e in klass.exercises if e.assignment == a) for a in names}
    scores = {s.name: {a: round(sum(s.scores[e.slug] for e in klass.exercises if e.assignment == a), 6)
                       for a in names} for s in klass.students}
    return names, points, scores


def canvas(klass: analysis.Class, id_column: str = "SIS Login ID", columns: dict | None = None) -> str:
    names, points, scores = per_assignment(klass)
    titles = [(columns or {}).get(a, a) for a in names]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Student", *ID_COLUMNS, "Section", *titles])
    w.writerow(["Points Possible", "", "", "", "", *(f"{points[a]:g}" for a in names)])
    for student, row in scores.items():
        ids = [csv_cell(student) if c == id_column else "" for c in ID_COLUMNS]
        w.writerow([csv_cell(student), *ids, "", *(f"{row[a]:g}" for a in names)])
    return buf.getvalue()


def plain(klass: analysis.Class) -> str:
    names, points, scores = per_assignment(klass)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student", "assignment", "score", "max_score"])
    for student, row in scores.items():
        for a in names:
            w.writerow([csv_cell(student), a, f"{row[a]:g}", f"{points[a]:g}"])
    return buf.getvalue()


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="write the grades of OUT in the form an LMS imports (instructors)",
        description="Read the folder 'attn-grade grade' wrote and write its grades per assignment: "
                    "'canvas' is Canvas's gradebook CSV (import it in Canvas: Grades, Import), 'csv' one row "
                    "per student and assignment.",
        epilog="examples:\n  attn-grade export graded/ --format canvas\n"
               "  attn-grade export graded/ --format canvas --column part1_scores='Part 1 (1234)'",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, metavar="OUT", help="the --out folder of 'attn-grade grade'")
    p.add_argument("--format", choices=("canvas", "csv"), required=True)
    p.add_argument("--to", type=Path, metavar="FILE",
                   help="where to write (default: OUT/canvas.csv or OUT/grades-by-assignment.csv; '-' for stdout)")
    p.add_argument("--id-column", choices=ID_COLUMNS, default="SIS Login ID",
                   help="canvas: the column that holds our student ids (default: SIS Login ID)")
    p.add_argument("--column", action="append", default=[], metavar="ASSIGNMENT=TITLE",
                   help="canvas: the column title for an assignment, as Canvas names it (repeatable)")
    p.set_defaults(run=_run)


def _run(parser, args) -> int:
    if not (args.out / "gradebook.csv").is_file():
        parser.error(f"{args.out}: no gradebook.csv there; give the --out folder of 'attn-grade grade'")
    columns = {}
    for item in args.column:
        name, sep, title = item.partition("=")
        if not sep or name not in registry.ASSIGNMENTS or not title:
            parser.error(f"--column {item!r}: write ASSIGNMENT=TITLE, ASSIGNMENT one of "
                         f"{', '.join(registry.ASSIGNMENTS)}")
        columns[name] = title
    try:
        klass = analysis.load(args.out)
    except (OSError, ValueError, KeyError, IndexError) as exc:
        print(f"attn-grade export: {args.out} could not be read ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    text = canvas(klass, args.id_column, columns) if args.format == "canvas" else plain(klass)
    if str(args.to) == "-":
        sys.stdout.write(text)
        return 0
    target = args.to or args.out / ("canvas.csv" if args.format == "canvas" else "grades-by-assignment.csv")
    write_atomic(target, text)
    print(f"wrote {target} ({len(klass.students)} students)")
    return 0
