"""The ``attn-grade`` command.

    attn-grade check [SLUG ...] [--dir DIR] [--json] [--public-only]
    attn-grade grade SUBMISSIONS --out OUT [--jobs N] [--timeout S] [--memory MB] [--force]
                     [--nbgrader-course DIR]
    attn-grade show RESULTS_JSON ...
    attn-grade list
    attn-grade release OUT [--force]                 (graders/release.py)
    attn-grade course build [--course DIR] [--check] (graders/course.py)

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
from .report import render_text
from .results import to_gradescope

# Modules adding their own subcommand: each has ``register(subparsers)``, which adds
# a parser and ``set_defaults(run=fn)``; ``fn(parser, args)`` returns the exit status.
PLUGINS = ("release", "course")

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

    grd = sub.add_parser(
        "grade", help="grade a folder of student submissions (instructors)",
        description="Grade SUBMISSIONS/<student>/<slug>.py for every student folder, in parallel "
                    "sandboxed workers. Writes OUT/<student>/results.json (Gradescope's shape) and "
                    "OUT/gradebook.csv, atomically. Students already graded in OUT are kept, so an "
                    "interrupted run resumes where it stopped; --force grades everyone again. "
                    "SUBMISSIONS may also be nbgrader's submitted/ folder "
                    "(<student>/<assignment>/<slug>.ipynb, recognised by itself): the answer cells "
                    "are taken out and graded in the sandbox; the notebooks are never executed.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  attn-grade grade submissions/ --out graded/ --jobs 4\n"
               "  attn-grade grade course/submitted --out graded/ --nbgrader-course course/")
    grd.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                     help="folder with one sub-folder per student")
    grd.add_argument("--out", type=Path, required=True, metavar="OUT",
                     help="where results.json files and gradebook.csv go (created if missing)")
    grd.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                     help=f"students graded in parallel (default: the number of cores, {os.cpu_count()})")
    grd.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="wall time allowed for one call of a student's function (default: 10)")
    grd.add_argument("--memory", type=int, default=1024, metavar="MB",
                     help="address-space limit of a student's worker (default: 1024)")
    grd.add_argument("--force", action="store_true", help="grade again students already graded in OUT")
    grd.add_argument("--no-progress", action="store_true", help="no progress bar")
    grd.add_argument("--nbgrader-course", type=Path, metavar="DIR",
                     help="also write the scores into this nbgrader course (its gradebook and "
                          "autograded/ notebooks), so formgrader, generate_feedback and export work "
                          "as after 'nbgrader autograde'; needs nbgrader")

    shw = sub.add_parser(
        "show", help="print the feedback in results.json files as a readable report",
        description="Render results.json files written by 'attn-grade grade' (or 'check --json') "
                    "as the same text report 'attn-grade check' prints.")
    shw.add_argument("files", nargs="+", type=Path, metavar="RESULTS_JSON")
    shw.add_argument("--only-failed", action="store_true", help="list only the checks that lost points")
    shw.add_argument("--color", choices=("auto", "always", "never"), default="auto")

    sub.add_parser("list", help="list the exercises with their titles and points")
    for name in PLUGINS:
        importlib.import_module(f".{name}", __package__).register(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "run"):  # a subcommand registered by one of PLUGINS
        return args.run(parser, args)
    if args.command == "list":
        for i, e in enumerate(registry.EXERCISES, 1):
            print(f"{i}. {e.slug:<15} {e.points:>4g} pts  {e.title}")
        return 0
    if args.command == "grade":
        return _grade(parser, args)
    if args.command == "show":
        return _show(parser, args)
    return _check(parser, args)


def _wants_color(args) -> bool:
    """--color always, or auto on a terminal unless NO_COLOR is set."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                      and "NO_COLOR" not in os.environ)


def _show(parser, args) -> int:
    from .results import from_gradescope

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


def _grade(parser, args) -> int:
    subs, out = args.submissions, args.out
    if not subs.is_dir():
        parser.error(f"SUBMISSIONS {subs}: no such folder")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    if args.memory < 256:
        parser.error("--memory must be at least 256 MB (NumPy and SymPy need room)")
    subs_real, out_real = subs.resolve(), out.resolve()
    if out_real == subs_real or subs_real in out_real.parents:
        parser.error(f"--out {out} is inside SUBMISSIONS; it would be graded as a student")
    if out_real in subs_real.parents:
        parser.error(f"SUBMISSIONS {subs} is inside --out {out}; keep them apart")
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out} exists and is not a folder")
    from .batch import Options, run

    course = None
    if args.nbgrader_course is not None:
        course = _nbgrader_preflight(parser, args, subs_real, out_real)
    run(Options(subs_real, out_real, jobs=args.jobs, timeout=args.timeout, memory_mb=args.memory,
                force=args.force, progress=not args.no_progress))
    if course is not None:
        from .batch import discover
        from .nbgradebook import write

        students = [name for name, _ in discover(subs_real)[0]]
        done = write(course, students, out_real, progress=not args.no_progress)
        print(f"nbgrader gradebook of {args.nbgrader_course}: {done['written']} submission(s) autograded "
              f"from our results (autograded/ notebooks and auto scores)")
        for line in done["problems"]:
            print("  " + line)
    return 0


def _nbgrader_preflight(parser, args, subs, out):
    """The course's nbgrader config, or a usage error naming what is wrong."""
    from .nbgradebook import GradebookError, preflight

    if not args.nbgrader_course.is_dir():
        parser.error(f"--nbgrader-course {args.nbgrader_course}: no such folder")
    try:
        return preflight(args.nbgrader_course.resolve(), subs, out)
    except GradebookError as exc:
        parser.error(str(exc))


def _check(parser, args) -> int:
    unknown = [s for s in args.slugs if s not in registry.BY_SLUG]
    if unknown:
        parser.error(f"unknown exercise {', '.join(map(repr, unknown))}; "
                     f"choose from: {', '.join(registry.BY_SLUG)}")
    if not args.dir.is_dir():
        parser.error(f"--dir {args.dir}: no such folder (it should hold your <slug>.py files)")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    from .zygote import shared

    shared().start()  # the zygote imports NumPy and SymPy while this process imports the graders
    from .engine import grade_file  # heavy imports only once the arguments are good
    from .sandbox import Worker

    slugs = args.slugs or [e.slug for e in registry.EXERCISES]
    color = _wants_color(args)
    if not args.json and not args.public_only and not Path(__file__).with_name("hidden").is_dir():
        print("Public checks only: the hidden checks, which compare with the reference solution, "
              "run when your instructor grades your work.\n", flush=True)
    results = []
    start = time.perf_counter()
    with Worker(args.dir) as worker:  # one sandboxed process serves all the files
        for slug in slugs:
            # one folder: recording checks for replay would only add work (graders/plans.py)
            result = grade_file(slug, args.dir / f"{slug}.py", hidden=not args.public_only,
                                call_timeout=args.timeout, worker=worker, replay=False)
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
