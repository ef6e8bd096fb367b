"""attn-grade variant: a student's own numbers, in a course that gives each student theirs.

An instructor may grade a course with variants (``attn-grade grade --variants``): then
the exercises whose numbers can change (hand_scores, worked_example) give each student their own
numbers, picked from the assignment and the student's id (graders/kit/variants.py). The
student tells this command their id once, ``attn-grade variant --id ID`` (kept for the
exercises folder, state.py); from then on ``check`` and ``watch`` grade their files on those
numbers, and ``attn-grade variant [EXERCISE]`` shows them. Without an id, every number is
the one the exercise's text gives.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from .. import registry
from ..grading.engine import numbers_text
from ..terminal.wrap import NAMED_NUMBER, wrap
from ..grading.folder import variant_of
from .name import COMMAND
from .state import State
from ..terminal.help import HelpFormatter
from .where import Unknown, folder_or_refuse, refuse, resolve

MAX_ID = 200


def register(sub) -> None:
    p = sub.add_parser(
        "variant", formatter_class=HelpFormatter,
        help="your own numbers, when your course gives each student theirs",
        description="Show the numbers your exercises use. A course may give each student their own numbers "
                    "in some exercises (your instructor says so); then set your student id once, as your course "
                    f"knows it (your JupyterHub user name, say; capitals do not count), with '{COMMAND} variant --id "
                    "ID', and check and watch grade your files on your numbers. The id is kept, for this exercises "
                    "folder, in your cache folder. Without an id your numbers are those in the "
                    "exercise's text.")
    p.add_argument("exercise", nargs="?", metavar="EXERCISE",
                   help="slug, number or file (default: every exercise whose numbers can change)")
    p.add_argument("--id", metavar="ID", dest="student", help="your student id in the course, kept for this folder")
    p.add_argument("--clear", action="store_true", help="forget the id: the exercise's own numbers again")
    p.add_argument("--dir", type=Path, help="your exercises folder (default: found from here)")
    p.set_defaults(run=run, command_parser=p)


def run(parser, args) -> int:
    folder = folder_or_refuse(parser, args.dir)
    if args.student is not None and args.clear:
        refuse(parser, "--id and --clear ask for opposite things; give one")
    state = State(folder, args.settings.cache)
    if args.student is not None:
        student = args.student.strip()
        if not student or len(student) > MAX_ID or not student.isprintable():
            refuse(parser, f"--id {args.student!r}: give your student id as your course knows it "
                           f"(printable, at most {MAX_ID} characters)")
        state.set_student(student)
        state.save()
        print(f"student id for {folder}: {student}")
    elif args.clear:
        had = state.student
        state.set_student(None)
        state.save()
        print(f"no student id for {folder} any more: the exercises' own numbers" if had else
              f"no student id was set for {folder}: the exercises' own numbers")
    try:
        slugs = [resolve(args.exercise, folder).slug] if args.exercise else \
            [e.slug for e in registry.EXERCISES if e.varies]
    except Unknown as exc:
        refuse(parser, str(exc))
    for line in lines(slugs, state.student):
        print(line)
    if state.student is None and not args.clear:
        print(f"If your course gives each student their own numbers: {COMMAND} variant --id ID")
    return 0


def lines(slugs, student: str | None) -> list[str]:
    """What ``variant`` says of ``slugs`` for ``student`` (None: no id set), 78 columns wide."""
    out = []
    for slug in slugs:
        exercise = registry.get(slug)
        variant = variant_of(slug, student)
        if not exercise.varies:
            head = f"{slug}: the same numbers for everyone, as its text gives them"
        elif student is None:
            head = f"{slug}: the exercise's own numbers (no student id set)"
        else:
            head = f"{slug}: variant {variant} of {exercise.assignment}, for student {student}"
        out.append(textwrap.fill(head, 78, subsequent_indent="  "))
        if exercise.varies:
            out += wrap(numbers_text(slug, variant), 2, 78, keep=NAMED_NUMBER)
    return out
