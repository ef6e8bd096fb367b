"""The ``attn-grade`` command.

    attn-grade check [SLUG ...] [--dir DIR] [--json] [--public-only]
    attn-grade list

Exit status: 0 at full marks, 1 when marks are missing, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from graders import registry
from graders.report import render_text
from graders.results import to_gradescope

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

    sub.add_parser("list", help="list the exercises with their titles and points")
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "list":
        for i, e in enumerate(registry.EXERCISES, 1):
            print(f"{i}. {e.slug:<15} {e.points:>4g} pts  {e.title}")
        return 0
    return _check(parser, args)


def _check(parser, args) -> int:
    unknown = [s for s in args.slugs if s not in registry.BY_SLUG]
    if unknown:
        parser.error(f"unknown exercise {', '.join(map(repr, unknown))}; "
                     f"choose from: {', '.join(registry.BY_SLUG)}")
    if not args.dir.is_dir():
        parser.error(f"--dir {args.dir}: no such folder (it should hold your <slug>.py files)")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    from graders.engine import grade_file  # heavy imports only once the arguments are good

    slugs = args.slugs or [e.slug for e in registry.EXERCISES]
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                       and "NO_COLOR" not in os.environ)
    results = []
    start = time.perf_counter()
    for slug in slugs:
        result = grade_file(slug, args.dir / f"{slug}.py", hidden=not args.public_only,
                            call_timeout=args.timeout)
        results.append(result)
        if not args.json:
            print(render_text([result], color=color, totals=False, only_failed=args.only_failed), flush=True)
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
