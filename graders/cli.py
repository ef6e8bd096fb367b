"""The ``attn-grade`` command.

    attn-grade check [SLUG ...] [--dir DIR] [--json] [--public-only]
    attn-grade grade SUBMISSIONS --out OUT [--jobs N] [--timeout S] [--memory MB] [--force]
                     [--nbgrader-course DIR]             (graders/classroom/grade.py)
    attn-grade show RESULTS_JSON ...
    attn-grade list
    attn-grade release OUT [--force]                 (graders/classroom/release.py)
    attn-grade course build [--course DIR] [--check] (graders/classroom/course.py)

Exit status: 0 at full marks, 1 when marks are missing, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path

from . import registry
from .grading.report import render_text
from .grading.results import to_gradescope

# The instructor's commands live in graders/classroom/ (grade, release, course): each module
# has ``register(subparsers)``, which adds a parser and ``set_defaults(run=fn)``;
# ``fn(parser, args)`` returns the exit status.

EPILOG = """\
examples:
  attn-grade check                    grade every exercise in ./exercises
  attn-grade check softmax attention  grade two exercises
  attn-grade check --dir solutions    grade the reference solutions (full marks)
  attn-grade check --json > results.json
                                      Gradescope's results.json shape

exercises, in order: """ + ", ".join(e.slug for e in registry.EXERCISES)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attn-grade",
        description="Grade the self-attention exercises. Your code runs in a separate worker "
                    "process; the feedback names what is wrong and shows a small counterexample.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    chk = sub.add_parser(
        "check", help="grade your exercise files and show feedback",
        description="Grade <DIR>/<slug>.py for each exercise slug and print every check with "
                    "its points and feedback. Exit status 0 only at full marks.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    chk.add_argument("slugs", nargs="*", metavar="SLUG",
                     help="exercises to grade (default: all, in teaching order)")
    chk.add_argument("--dir", default="exercises", type=Path,
                     help="folder holding the <slug>.py files (default: ./exercises)")
    chk.add_argument("--json", action="store_true",
                     help="print results in Gradescope's results.json shape instead of text")
    chk.add_argument("--public-only", action="store_true",
                     help="run only the public checks (what students see before the deadline)")
    chk.add_argument("--only-failed", action="store_true",
                     help="in the text report, list only the checks that lost points")
    chk.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="time allowed for one call of your function (default: 10)")
    chk.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                     help="colour the text report (default: auto, on a terminal)")

    _add_plugins(sub, ("grade",))

    shw = sub.add_parser(
        "show", help="print the feedback in results.json files as a readable report",
        description="Render results.json files written by 'attn-grade grade' (or 'check --json') "
                    "as the same text report 'attn-grade check' prints.")
    shw.add_argument("files", nargs="+", type=Path, metavar="RESULTS_JSON")
    shw.add_argument("--only-failed", action="store_true", help="list only the checks that lost points")
    shw.add_argument("--color", choices=("auto", "always", "never"), default="auto")

    sub.add_parser("list", help="list the exercises with their titles and points")
    _add_plugins(sub, ("release", "course"))
    return parser


def _add_plugins(sub, names) -> None:
    """The instructor's commands, from graders/classroom/; a student's copy has none of them."""
    for name in names:
        try:
            module = importlib.import_module(f"{__package__}.classroom.{name}")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"{__package__}.classroom", f"{__package__}.classroom.{name}"):
                raise
            continue
        module.register(sub)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "run"):  # an instructor's command, registered by graders/classroom/
        return args.run(parser, args)
    if args.command == "list":
        for i, e in enumerate(registry.EXERCISES, 1):
            print(f"{i}. {e.slug:<15} {e.points:>4g} pts  {e.title}")
        return 0
    if args.command == "show":
        return _show(parser, args)
    return _check(parser, args)


def _wants_color(args) -> bool:
    """--color always, or auto on a terminal unless NO_COLOR is set."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                      and "NO_COLOR" not in os.environ)


def _show(parser, args) -> int:
    from .grading.results import from_gradescope

    color = _wants_color(args)
    for path in args.files:
        try:
            results = from_gradescope(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"{path}: not a readable results.json ({exc})")
        if len(args.files) > 1:
            print(f"== {path} ==")
        print(render_text(results, color=color, only_failed=args.only_failed))
    return 0


def _check(parser, args) -> int:
    unknown = [s for s in args.slugs if s not in registry.BY_SLUG]
    if unknown:
        parser.error(f"unknown exercise {', '.join(map(repr, unknown))}; "
                     f"choose from: {', '.join(registry.BY_SLUG)}")
    if not args.dir.is_dir():
        parser.error(f"--dir {args.dir}: no such folder (it should hold your <slug>.py files)")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    from .sandbox.zygote import shared

    shared().start()  # the zygote imports NumPy and SymPy while this process imports the graders
    from .grading.engine import grade_file  # heavy imports only once the arguments are good
    from .sandbox.handle import Worker

    slugs = args.slugs or [e.slug for e in registry.EXERCISES]
    color = _wants_color(args)
    if not args.json and not args.public_only and not Path(__file__).with_name("hidden").is_dir():
        print("Public checks only: the hidden checks, which compare with the reference solution, "
              "run when your instructor grades your work.\n", flush=True)
    results = []
    start = time.perf_counter()
    with Worker(args.dir) as worker:  # one sandboxed process serves all the files
        for slug in slugs:
            # checks replay their recordings, kept on disk between runs (graders/grading/plancache.py)
            result = grade_file(slug, args.dir / f"{slug}.py", hidden=not args.public_only,
                                call_timeout=args.timeout, worker=worker)
            results.append(result)
            if not args.json:
                print(render_text([result], color=color, totals=False, only_failed=args.only_failed),
                      flush=True)
    if args.json:
        print(json.dumps(to_gradescope(results), indent=2))
    else:
        print(render_text(results, color=color, summary_only=True, seconds=time.perf_counter() - start))
    full = all(r.points >= r.max_points for r in results)
    return 0 if full else 1


def run() -> None:
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
