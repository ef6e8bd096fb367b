"""attn-grade extend: the late submissions of an nbgrader course, and an extension for one student.

A submission is as late as its newest copy, so a student who hands in again after the due date
(often after a person marked the first copy) makes the whole assignment late, and under
``penalty_method = "zero"`` worth 0. nbgrader keeps an extension per student and assignment
(Gradebook.grant_extension) but has no command for it; this is that command. Without a student it
lists every late submission and what the course's policy costs it now (nblate.py); with one it
grants the extension (replacing an earlier one, as nbgrader does; ``--by 0`` removes it) and stores
the penalties worked out again, so formgrader, ``nbgrader export`` and ``attn-grade export`` agree.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ...terminal.help import HelpFormatter

UNITS = {"w": "weeks", "d": "days", "h": "hours", "min": "minutes", "m": "minutes"}


def duration(text: str) -> dict:
    """'2d', '1d12h', '90min', '1w', '0' -> grant_extension's keywords; ValueError otherwise."""
    text = text.strip().lower().replace(" ", "")
    if text == "0":
        return {}
    parts = re.fullmatch(r"(?:\d+(?:w|d|h|min|m))+", text) and re.findall(r"(\d+)(w|d|h|min|m)", text)
    if not parts:
        raise ValueError(f"{text!r} is not a duration: write it like 2d, 36h, 90min, 1w or 1d12h (0 removes it)")
    found: dict = {}
    for number, unit in parts:
        found[UNITS[unit]] = found.get(UNITS[unit], 0) + int(number)
    return found


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "extend", help="list late submissions of an nbgrader course, or give a student an extension (instructors)",
        description="Without STUDENT: list the course's late submissions and what its late policy costs each "
                    "now. With STUDENT ASSIGNMENT --by DURATION: give that student an extension for that "
                    "assignment (nbgrader's own, counted from the due date; it replaces an earlier one), "
                    "and work the late penalties out again. Export afterwards as usual.",
        epilog="examples:\n  attn-grade extend --nbgrader-course course/\n"
               "  attn-grade extend --nbgrader-course course/ s42 part2_attention --by 2d\n"
               "  attn-grade extend --nbgrader-course course/ s42 part2_attention --by 0   (remove it)",
        formatter_class=HelpFormatter)
    p.add_argument("student", nargs="?", help="the student's id (as in the gradebook)")
    p.add_argument("assignment", nargs="?", help="the assignment, e.g. part2_attention")
    p.add_argument("--nbgrader-course", type=Path, metavar="DIR", required=True,
                   help="the nbgrader course folder (where gradebook.db and nbgrader_config.py are)")
    p.add_argument("--by", metavar="DURATION", help="how long after the due date: 2d, 36h, 90min, 1w; 0 removes it")
    p.set_defaults(run=_run)


def _run(parser, args) -> int:
    from ..exports.nbscores import CourseError, nbgrader_config, open_gradebook

    if args.student and not (args.assignment and args.by):
        parser.error("give STUDENT ASSIGNMENT --by DURATION, or none of them to list the late submissions")
    if args.by and not args.student:
        parser.error("--by needs STUDENT ASSIGNMENT")
    try:
        keywords = duration(args.by) if args.by else None
        book, config = open_gradebook(args.nbgrader_course), nbgrader_config(args.nbgrader_course)
    except (ValueError, CourseError) as exc:
        print(f"attn-grade extend: {exc}", file=sys.stderr)
        return 2
    from nbgrader.api import MissingEntry

    from ..exports.coursegrades import how_late
    from ..exports.nblate import late, priced, refresh

    with book as gb:
        if keywords is not None:
            try:
                gb.find_submission(args.assignment, args.student)
            except MissingEntry:
                print(f"attn-grade extend: {args.student} has no submission of {args.assignment} in "
                      f"{args.nbgrader_course}/gradebook.db (grade it first, or check the names)", file=sys.stderr)
                return 2
            gb.grant_extension(args.assignment, args.student, **keywords)
            refresh(gb, config, [args.assignment])
            sub = gb.find_submission(args.assignment, args.student)
            given = f"an extension of {args.by} for" if keywords else "no extension for"
            state = (f"still late by {how_late(sub.total_seconds_late)}" if sub.total_seconds_late > 0
                     else "on time now")
            print(f"{args.student} has {given} {args.assignment}: {state}")
            return 0
        lines = described(late(priced(gb, config)))
    print("\n".join(lines) if lines else "no late submissions")
    return 0


def described(found) -> list[str]:
    """A line per late submission (nblate.Late): how late, and what the policy costs it now."""
    from ..exports.coursegrades import late_note

    return [f"{e.student} {e.assignment}: " + late_note({"seconds_late": e.seconds_late, "penalty": e.penalty})
            for e in found]


def late_summary(course: Path, assignments) -> list[str]:
    """What ``attn-grade grade --nbgrader-course`` says of the late submissions it graded."""
    from ..exports.nblate import late, priced
    from ..exports.nbscores import nbgrader_config, open_gradebook

    with open_gradebook(course) as gb:
        lines = described(late(priced(gb, nbgrader_config(course), assignments)))
    if not lines:
        return []
    return [f"late, under the course's policy: {len(lines)} submission(s) (a copy handed in again after the due "
            f"date makes the whole assignment late; 'attn-grade extend' gives an extension):",
            *("  " + line for line in lines)]
