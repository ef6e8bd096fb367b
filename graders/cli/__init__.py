"""The ``attn-grade`` command: one module per verb.

    check.py     attn-grade check [EXERCISE ...]: grade, report, remember, say what is next
    session.py   a learner's grading session: one sandbox per folder, from the resident zygote
    fullmarks.py   full-marks results kept for the next check, while nothing they depend on changes
    second_lane.py check's second lane: a forked copy that grades the longest files meanwhile
    watch.py     attn-grade watch [EXERCISE]: check again at every save
    hint.py      attn-grade hint [EXERCISE] [--reset]: the next hint; which lesson prepares what
    progress.py  attn-grade list: the exercises, the learner's progress, the next one
    show.py      attn-grade show RESULTS_JSON ...: results.json as the text report
    stop.py      attn-grade stop: end the resident zygote (sandbox/resident.py)
    prepare.py   attn-grade prepare: record every check once for this machine (grading/prepare.py)
    variant.py   attn-grade variant [EXERCISE] [--id ID]: a student's own numbers (kit/variants.py)
    where.py     finding the exercises folder; slugs, numbers and file names; near misses
    name.py      the command's name in messages: attn-grade, or attn-learn in the student bundle
    state.py     what is remembered per learner folder (last checks, hints seen)
    term.py      colour, clearing the screen, Ctrl-C (wrapping and --help: terminal/)
    __main__.py  python -m graders.cli

The instructor's verbs (grade, report, export, gradescope, release, course) come
from graders/classroom/: each such module has ``register(subparsers)``; a
student's copy has none of them. Exit status: 0 at full marks, 1 when marks are missing, 2 for a usage error, 3 when
no sandbox could be started (nothing was graded).

May import: cli/, classroom/, grading/, terminal/, kit/ and the registry: what a command needs of the sandbox
comes through grading/sandboxes.py.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from pathlib import Path

from .. import registry
from ..grading.settings import Settings
from .name import COMMAND
from ..terminal.help import HelpFormatter

LIBRARIES = ("numpy", "sympy", "hypothesis", "watchdog", "tqdm")
EPILOG = """\
examples:
  {c} list              the exercises, your progress and their lessons
  {c} check softmax     check one exercise (or: 5, exercises/softmax.py)
  {c} check             check every exercise, in teaching order
  {c} watch             check again each time you save a file
  {c} hint softmax      the next hint for an exercise
  {c} check --json > results.json
                               Gradescope's results.json shape

exercises, in order: """.format(c=COMMAND.ljust(10)) + ", ".join(e.slug for e in registry.EXERCISES)


LEARNER_VERBS = ("list", "check", "watch", "hint", "show", "stop", "variant", "prepare")
# The instructor's verbs and the classroom/ modules that register them.
INSTRUCTOR_VERBS = {"grade": "grade", "report": "report.classreport", "comment": "report.comments",
                    "export": "exports.export", "gradescope": "gradescope.gradescope", "release": "release.release",
                    "course": "authoring.course", "extend": "nbgrader.nbextend"}


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The parser for ``argv``: with the instructor's commands only when they may be wanted
    (no learner's verb named), since loading them costs a learner's check about 0.1 s."""
    from . import check, hint, prepare, progress, show, stop, variant, watch

    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Check your self-attention exercises. Start with the lessons in course/lessons/, "
                    "fill in the stubs in exercises/, then check them here. Your code runs in a separate, "
                    "confined process; the feedback names what is wrong and shows a small counterexample.",
        formatter_class=HelpFormatter, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    progress.register(sub)
    check.register(sub, EPILOG)
    watch.register(sub)
    hint.register(sub)
    show.register(sub)
    stop.register(sub)
    variant.register(sub)
    prepare.register(sub)
    verb = next((a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")), None)
    found = [] if verb in LEARNER_VERBS else \
        _add_plugins(_Unlisted(sub), {verb: INSTRUCTOR_VERBS[verb]} if verb in INSTRUCTOR_VERBS else INSTRUCTOR_VERBS)
    if found:
        parser.epilog += (f"\n\nfor instructors: {', '.join(found)} "
                          f"({COMMAND} COMMAND --help says what each does)")
    if verb is not None and verb not in LEARNER_VERBS and verb not in found:
        close = difflib.get_close_matches(verb, [*LEARNER_VERBS, *found], n=1, cutoff=0.6)
        parser.error(f"unknown command '{verb}'" + (f": did you mean '{close[0]}'?" if close else "")
                     + f" (commands: {', '.join(LEARNER_VERBS)}; '{COMMAND} --help' says what each does)")
    return parser


class _Unlisted:
    """The subparsers, for the instructor's commands: they work, but a learner's list of
    commands does not show them (their help speaks of solutions/ and hidden checks)."""

    def __init__(self, sub):
        self.sub = sub

    def add_parser(self, name, **kwargs):
        kwargs.pop("help", None)  # no help: argparse then leaves the command out of the list
        return self.sub.add_parser(name, **kwargs)


def _add_plugins(sub, verbs) -> list:
    """The instructor's commands, from graders/classroom/ ({verb: module}; a student's copy has
    none of them); return the verbs found."""
    package = __package__.rpartition(".")[0]
    found = []
    for verb, name in verbs.items():
        try:
            module = importlib.import_module(f"{package}.classroom.{name}")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"{package}.classroom", f"{package}.classroom.{name}"):
                raise
            continue
        module.register(sub)
        found.append(verb)
    return found


def main(argv=None) -> int:
    return dispatch(argv)[0]


def dispatch(argv=None):
    """Run the verb ``argv`` names: (its exit status, the parsed arguments)."""
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    verb = getattr(args, "command_parser", parser)  # usage errors show the verb's usage
    if extra:
        verb.error(f"unrecognized arguments: {' '.join(extra)}")
    args.settings = Settings.from_environ()  # the environment's choices, read once and passed down
    return args.run(verb, args), args


# The learner's verbs: when they return, everything they write is written and closed, and
# Python's own teardown (SymPy's caches, the sandbox's objects) would add about 0.2 s to each.
QUICK_EXIT = ("check", "list", "hint")


def missing_library(exc: ModuleNotFoundError) -> str | None:
    """What to tell someone who runs the command with a Python that lacks a library it needs."""
    name = (exc.name or "").split(".")[0]
    if name not in LIBRARIES:
        return None
    venv = Path(__file__).resolve().parents[2] / ".venv"
    activate = venv / ("Scripts/activate" if os.name == "nt" else "bin/activate")
    if activate.is_file() and Path(sys.prefix).resolve() != venv.resolve():
        how = (f"activate the project's environment first:\n\n    . {activate}\n\n"
               f"(or run {venv / 'bin' / COMMAND} directly)")
    else:
        how = ("set up the environment once with 'python3 tasks.py setup' in the project folder, "
               "then activate it with '. .venv/bin/activate'")
    return f"{COMMAND} needs {name}, which {sys.executable} does not have: {how}"


def run() -> None:
    try:
        os.getcwd()
    except FileNotFoundError:  # every verb shows paths relative to it, and looks for exercises/ from it
        print(f"{COMMAND}: the folder you are in no longer exists (deleted or moved since you "
              "entered it): cd into the project again", file=sys.stderr)
        sys.exit(2)
    try:
        code, args = dispatch()
        if args.command in QUICK_EXIT and sys.getprofile() is None and sys.gettrace() is None:  # not profiled
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        sys.exit(code)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # the reader went away (attn-grade check | head): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the final flush cannot fail
        sys.exit(1)
    except ModuleNotFoundError as exc:
        message = missing_library(exc)
        if message is None:
            raise
        print(message, file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the sandbox could not start: the grader's failure, never marks lost
        from ..grading.sandboxes import SandboxFailed

        if not isinstance(exc, SandboxFailed):
            raise
        print(f"{COMMAND}: {exc}\nnothing was graded; this is not a problem with your code", file=sys.stderr)
        sys.exit(3)
