"""``attn-grade export OUT --format canvas|csv``: grades in the form an LMS imports.

* ``canvas``: Canvas's gradebook CSV. The header row is Student, ID, SIS User
  ID, SIS Login ID, Section, then one column per assignment; the second row,
  "Points Possible", gives each assignment's points; then a row per student.
  Canvas matches a row to a student by one of its ID columns: our student id
  goes in the one ``--id-column`` names (SIS Login ID by default), and in
  Student, unless the nbgrader course's roster names the student ("Last,
  First"). A column whose name matches no Canvas assignment makes a new one; to
  fill an existing assignment, name the column as Canvas's own export does,
  "Title (id)", with ``--column part1_scores="Part 1 (1234)"``.
* ``csv``: one row per student and assignment: student, assignment, score,
  max_score.

Several OUT folders (``graded/*``, one per assignment) make one file, with a
column (or rows) per assignment. Scores are the points of OUT; with
``--nbgrader-course`` they are the course's grades instead (nbscores.py): hand-
marked points in, less the late penalty, as ``nbgrader export`` gives them, and a
grade that still waits for marking by hand is refused (or, with
``--allow-ungraded``, left empty). Likewise, from OUT folders, a grade with a
check SymPy could not settle (it waits for a person: grading/results.py) is
refused, naming the student and the check, or with ``--allow-ungraded`` left
empty: its points are pending, and a 0 would be a grade about to change. Cells
that a spreadsheet would run as a formula get a leading quote, as in
gradebook.csv. An earlier export that ``graded/*`` also matches (``earlier_export``:
by name or first rows) is passed over with a one-line note; any other file is an error.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import csv_cell, write_atomic
from ...terminal.wrap import fit_lines
from ...grading.results import points_text
from ..report import analysis
from ...terminal.help import HelpFormatter

ID_COLUMNS = ("ID", "SIS User ID", "SIS Login ID")
NAMES = {"canvas": "canvas.csv", "csv": "grades-by-assignment.csv"}  # what export writes in OUT, or beside
PLAIN_HEADER = ["student", "assignment", "score", "max_score"]


class ExportError(Exception):
    """What the folders given cannot make: an assignment twice, an unreadable gradebook."""


@dataclass
class Grades:
    """Grades per assignment: ``scores[student][assignment]`` is None where there is none (yet)."""

    assignments: list  # in teaching order
    points: dict  # assignment -> points possible
    scores: dict  # student -> assignment -> score or None
    names: dict = field(default_factory=dict)  # student -> "Last, First", where a roster says
    waiting: dict = field(default_factory=dict)  # (student, assignment) -> ["exercise: check (points)"] a person is to check

    def missing(self) -> list:
        return [(s, a) for s, row in self.scores.items() for a in self.assignments if row.get(a) is None]


def per_assignment(klass: analysis.Class) -> Grades:
    names = [a for a in registry.ASSIGNMENTS if any(e.assignment == a for e in klass.exercises)]
    points = {a: sum(e.points for e in klass.exercises if e.assignment == a) for a in names}
    scores = {s.name: {a: round(sum(s.scores[e.slug] for e in klass.exercises if e.assignment == a), 6)
                       for a in names} for s in klass.students}
    waiting = {}
    for student, slug, check, pending in analysis.waiting(klass):
        waiting.setdefault((student, registry.get(slug).assignment), []).append(
            f"{slug}: {check} ({points_text(pending)} pending)")
    return Grades(names, points, scores, waiting=waiting)


def from_outs(outs: list) -> Grades:
    """The grades of one or more OUT folders, each assignment from the one folder that has it."""
    where, merged = {}, Grades([], {}, {})
    for out in outs:
        try:
            grades = per_assignment(analysis.load(out))
        except (OSError, ValueError, KeyError, IndexError) as exc:
            raise ExportError(f"{out} could not be read ({type(exc).__name__}: {exc})") from None
        for a in grades.assignments:
            if a in where:
                raise ExportError(f"{a} is graded in both {where[a]} and {out}; give each assignment once")
            where[a] = out
        merged.points.update(grades.points)
        merged.waiting.update(grades.waiting)
        for student, row in grades.scores.items():
            merged.scores.setdefault(student, {}).update(row)
    merged.assignments = [a for a in registry.ASSIGNMENTS if a in where]
    merged.scores = dict(sorted(merged.scores.items()))
    return merged


def from_course(course: Path, assignments: list) -> Grades:
    from .nbscores import CourseError, grades

    try:
        points, scores, names, _ = grades(course, assignments)  # the late penalties are in the grades
    except CourseError as exc:
        raise ExportError(str(exc)) from None
    return Grades(list(assignments), points, dict(sorted(scores.items())), names)


def _cell(score) -> str:
    return "" if score is None else f"{score:g}"


def canvas(grades: Grades, id_column: str = "SIS Login ID", columns: dict | None = None) -> str:
    names = grades.assignments
    titles = [(columns or {}).get(a, a) for a in names]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Student", *ID_COLUMNS, "Section", *titles])
    w.writerow(["Points Possible", "", "", "", "", *(f"{grades.points[a]:g}" for a in names)])
    for student, row in grades.scores.items():
        ids = [csv_cell(student) if c == id_column else "" for c in ID_COLUMNS]
        who = csv_cell(grades.names.get(student, student))
        w.writerow([who, *ids, "", *(_cell(row.get(a)) for a in names)])
    return buf.getvalue()


def plain(grades: Grades) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(PLAIN_HEADER)
    for student, row in grades.scores.items():
        for a in grades.assignments:
            w.writerow([csv_cell(student), a, _cell(row.get(a)), f"{grades.points[a]:g}"])
    return buf.getvalue()


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="write the grades of OUT in the form an LMS imports (instructors)",
        description="Read the folder(s) 'attn-grade grade' wrote and write their grades per assignment: "
                    "'canvas' is Canvas's gradebook CSV (import it in Canvas: Grades, Import), 'csv' one row "
                    "per student and assignment. Several folders (one per assignment) make one file. With "
                    "--nbgrader-course the grades are the course's: hand-marked points in, less the late penalty.",
        epilog="examples:\n  attn-grade export graded/* --format canvas --to canvas.csv\n"
               "  attn-grade export graded/* --format canvas --nbgrader-course course/\n"
               "  attn-grade export graded/ --format canvas --column part1_scores='Part 1 (1234)'",
        formatter_class=HelpFormatter)
    p.add_argument("out", type=Path, nargs="+", metavar="OUT", help="the --out folder(s) of 'attn-grade grade'")
    p.add_argument("--format", choices=("canvas", "csv"), required=True)
    p.add_argument("--to", type=Path, metavar="FILE",
                   help="where to write (default: canvas.csv or grades-by-assignment.csv in OUT, or beside "
                        "several OUTs; '-' for stdout)")
    p.add_argument("--id-column", choices=ID_COLUMNS, default="SIS Login ID",
                   help="canvas: the column that holds our student ids (default: SIS Login ID)")
    p.add_argument("--column", action="append", default=[], metavar="ASSIGNMENT=TITLE",
                   help="canvas: the column title for an assignment, as Canvas names it (repeatable)")
    p.add_argument("--nbgrader-course", type=Path, metavar="DIR",
                   help="take the grades from this nbgrader course's gradebook: automatic and hand-marked "
                        "points, less the late penalty, as 'nbgrader export' computes them")
    p.add_argument("--allow-ungraded", action="store_true",
                   help="write the file even where a grade still waits for a person (a cell to be marked by hand "
                        "in formgrader, or a check SymPy could not settle), leaving those grades empty "
                        "(default: refuse, and say which)")
    p.set_defaults(run=_run)


def undecided_refusal(waiting: dict, outs) -> str:
    """Why export refuses grades with checks SymPy could not settle, whose, and what to do."""
    out = outs[0] if len(outs) == 1 else Path("OUT")
    lines = [f"attn-grade export: {len(waiting)} grade(s) wait for a person's check: SymPy could not settle "
             f"an exact answer in time, so its points are pending, neither given nor lost:"]
    for (student, assignment), checks in sorted(waiting.items())[:10]:
        lines += [f"  {student}, {assignment}: {check}" for check in checks]
    if len(waiting) > 10:
        lines.append(f"  ... and {len(waiting) - 10} more (the summary of 'attn-grade grade' lists them all)")
    lines.append(f"Check each answer by hand ('attn-grade show {out}/students/<student>/results.json' shows it). "
                 f"Then: in an nbgrader course, 'attn-grade grade --nbgrader-course' has listed that cell in "
                 f"formgrader under 'needs manual grade': give it its score there and export with "
                 f"--nbgrader-course; otherwise pass --allow-ungraded to leave these grades empty, and enter "
                 f"them in your LMS yourself.")
    return "\n".join(lines)


def earlier_export(path: Path) -> bool:
    """Whether the file ``path`` is one this command writes: by its default name, or by its first rows."""
    if path.name in NAMES.values():
        return True
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            rows = list(csv.reader(f.read(65536).splitlines()[:2]))
    except (OSError, csv.Error):
        return False
    return bool(rows) and (rows[0] == PLAIN_HEADER or (rows[0][:5] == ["Student", *ID_COLUMNS, "Section"]
                                                       and rows[1:2] == [["Points Possible", *rows[1][1:]]]))


def _folders(parser, given: list) -> tuple[list, list]:
    """(the OUT folders given, the earlier exports given); any other path is a usage error naming it."""
    folders, exports = [], []
    how = "give the --out folder(s) of 'attn-grade grade' (one per assignment: graded/*)"
    for path in given:
        if path.is_dir() and (path / "gradebook.csv").is_file():
            folders.append(path)
        elif path.is_file() and earlier_export(path):
            exports.append(path)
        elif path.is_dir():
            parser.error(f"{path}: no gradebook.csv there; {how}")
        elif path.exists():
            parser.error(f"{path}: a file, neither a folder 'attn-grade grade' wrote nor an earlier export; {how}")
        else:
            parser.error(f"{path}: no such file or folder; {how}")
    if not folders:
        parser.error(f"{', '.join(map(str, exports))}: an earlier export, not a folder to read; {how}")
    return folders, exports


def _run(parser, args) -> int:
    args.out, exports = _folders(parser, args.out)  # graded/* also matches an export written there before
    columns = {}
    for item in args.column:
        name, sep, title = item.partition("=")
        if not sep or name not in registry.ASSIGNMENTS or not title:
            parser.error(f"--column {item!r}: write ASSIGNMENT=TITLE, ASSIGNMENT one of "
                         f"{', '.join(registry.ASSIGNMENTS)}")
        columns[name] = title
    try:
        grades = from_outs(args.out)
        if args.nbgrader_course:
            grades = from_course(args.nbgrader_course, grades.assignments)
    except ExportError as exc:
        print(f"attn-grade export: {exc}", file=sys.stderr)
        return 2
    if grades.waiting and not args.nbgrader_course:  # the course's gradebook knows what a person marked since
        if not args.allow_ungraded:
            print(fit_lines(undecided_refusal(grades.waiting, args.out), stream=sys.stderr), file=sys.stderr)
            return 2
        for student, assignment in grades.waiting:
            grades.scores[student][assignment] = None
    waiting = grades.missing()
    if waiting and args.nbgrader_course and not args.allow_ungraded:
        shown = ", ".join(f"{s} ({a})" for s, a in waiting[:5]) + (" ..." if len(waiting) > 5 else "")
        print(fit_lines(f"attn-grade export: {len(waiting)} grade(s) wait for a cell to be marked by hand in "
                        f"formgrader: {shown} (a written proof, or a check SymPy could not settle). Mark them "
                        f"(formgrader's Manual Grading lists them as 'needs manual grade'), or pass "
                        f"--allow-ungraded to leave those grades empty.", stream=sys.stderr), file=sys.stderr)
        return 2
    text = canvas(grades, args.id_column, columns) if args.format == "canvas" else plain(grades)
    if str(args.to) == "-":
        sys.stdout.write(text)
        return 0
    target = args.to or (args.out[0] if len(args.out) == 1 else
                         Path(os.path.commonpath([os.path.abspath(o) for o in args.out]))) / NAMES[args.format]
    write_atomic(target, text)
    others = [e for e in exports if os.path.abspath(e) != os.path.abspath(target)]
    print(f"wrote {target} ({len(grades.scores)} students, {len(grades.assignments)} assignment(s)"
          f"{'; it replaces the earlier export' if len(others) < len(exports) else ''})")
    if others:
        print(f"not read: {', '.join(map(str, others))} ({'earlier exports' if others[1:] else 'an earlier export'})")
    if waiting:
        print(f"left empty: {len(waiting)} grade(s) with no score yet: "
              + ", ".join(f"{s} ({a})" for s, a in waiting[:5]) + (" ..." if len(waiting) > 5 else ""))
    return 0
