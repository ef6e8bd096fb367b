"""attn-grade check: grade the learner's exercise files and print the feedback.

A file unchanged since it was at full marks shows its kept result (fullmarks.py);
the others are graded in a Session (session.py: the resident zygote's
sandboxes, plans replayed from disk), on two lanes when there are several
(second_lane.py), and printed in teaching order as they come in. Each file's result
is remembered for list, hint and watch (state.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from .second_lane import Lane, cores, split
from .name import COMMAND
from .session import Session, mentions_sympy
from .term import CtrlC
from ..terminal.help import HelpFormatter
from .state import State
from .where import SLUGS, Target, Unknown, find_folder, refuse, resolve, shown


def register(sub, epilog: str) -> None:
    chk = sub.add_parser(
        "check", help="grade your exercise files and show feedback",
        description="Grade your exercise files and print every check with its points and feedback. "
                    "Exit status 0 only at full marks.",
        formatter_class=HelpFormatter, epilog=epilog)
    chk.add_argument("exercises", nargs="*", metavar="EXERCISE",
                     help=f"slug (softmax), number from '{COMMAND} list' (5) or file (exercises/softmax.py); "
                          "default: all, in teaching order")
    chk.add_argument("--dir", type=Path, help="folder holding your <slug>.py files "
                                              "(default: exercises/, found from anywhere in the project)")
    chk.add_argument("--json", action="store_true",
                     help="print results in Gradescope's results.json shape instead of text")
    chk.add_argument("--public-only", action="store_true",
                     help="run only the public checks (what students see before the deadline)")
    chk.add_argument("--only-failed", action="store_true",
                     help="in the text report, list only the checks that lost points")
    add_grading_options(chk)
    chk.set_defaults(run=run, command_parser=chk)


def add_grading_options(p) -> None:
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                   help="time allowed for one call of your function (default: 10)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text report (default: auto, on a terminal)")
    p.add_argument("--fresh", action="store_true",
                   help="grade every file again, even one unchanged since it was at full marks "
                        "(otherwise that result is shown again)")


def folder_of(parser, args) -> Path:
    if args.dir is not None:
        if not args.dir.is_dir():
            refuse(parser, f"--dir {args.dir}: no such folder (it should hold your <slug>.py files)")
        return args.dir
    found = find_folder()
    if found is None:
        refuse(parser, f"no exercises/ folder in {shown(Path.cwd())} or above it: run {COMMAND} inside the "
                     f"project (or the student bundle), or pass --dir FOLDER")
    return found


def targets_of(parser, words, folder: Path) -> list[Target]:
    try:
        found = [resolve(w, folder) for w in words] if words else [Target(s, folder / f"{s}.py") for s in SLUGS]
    except Unknown as exc:
        refuse(parser, str(exc))
    return list(dict.fromkeys(found))


def run(parser, args) -> int:
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    folder = folder_of(parser, args)
    targets = targets_of(parser, args.exercises, folder)
    kept = {} if args.fresh else kept_results(targets, args)
    mine, theirs = two_lanes([t for t in targets if t not in kept], args.settings)
    lane = Lane(theirs, alone(args)) if theirs else None  # forked first: nothing is started yet
    try:
        return _run(args, targets, mine, lane, kept)
    finally:
        if lane:
            lane.close()


def _run(args, targets, mine, lane, kept) -> int:
    sessions = []

    def session():  # none at all when every file's result is kept
        if not sessions:
            sessions.append(Session(args.settings, timeout=args.timeout, public_only=args.public_only, fresh=True,
                                    sympy=mentions_sympy(t.path for t in mine)))
        return sessions[0]

    for t in mine:
        session().prepare(t.path.parent)
    from ..grading.report import render_text  # the graders load while the sandbox starts
    from .term import fit, wants_color
    from .progress import has_hidden

    color = wants_color(args)
    if not args.json and not args.public_only and not has_hidden():
        print(fit("Public checks only: the hidden checks, which compare with the reference solution, "
                  "run when your instructor grades your work.", hang=0) + "\n", flush=True)
    done, shown, start = dict(kept), [], time.perf_counter()
    ctrl_c = CtrlC()

    def show_ready():  # in teaching order, each as soon as it and those before it are in
        while len(shown) < len(targets) and targets[len(shown)] in done:
            result = done[targets[len(shown)]]
            shown.append(result)
            if not args.json:
                print(render_text([result], color=color, totals=False, only_failed=args.only_failed), flush=True)

    def grade(t):
        result = session().grade(t)
        ctrl_c.check()  # pressed during the grading: its result may be of a part-stopped grader
        done[t] = result

    try:
        for t in mine:
            grade(t)
            done.update(lane.ready() if lane else {})
            show_ready()
        if lane:
            done.update(lane.rest())
            ctrl_c.check()
            for t in lane.missing():
                grade(t)
        show_ready()
    finally:
        ctrl_c.close()
        if lane:
            lane.close()  # before the session: its sandboxes end with it
        for s in sessions:
            s.close()
        graded = [t for t in targets if t in done]
        # even if the reader went away (| head) or Ctrl-C
        remember([done[t] for t in graded], graded, args.settings.cache)
    results = shown
    if args.json:
        from ..grading.results import to_gradescope

        print(json.dumps(to_gradescope(results), indent=2))
    else:
        print(render_text(results, color=color, summary_only=True, seconds=time.perf_counter() - start))
        if sessions and sessions[0].protections:
            from ..grading.sandboxes import protections_in_words

            print(fit(protections_in_words(sessions[0].protections)))
        if kept:
            one = len(kept) == 1
            print(fit(f"{_count(len(kept), 'unchanged file')} {'was' if one else 'were'} not run again "
                      f"(full marks or a stub; --fresh runs {'it' if one else 'them'})"))
        print(fit(after_words(results, targets, args.settings.cache)))
    return 0 if all(r.points >= r.max_points for r in results) else 1


def two_lanes(targets, settings) -> tuple[list, list]:
    """(the targets this process grades, those a forked copy grades): two lanes for several files,
    with two cores and the resident zygote (ATTN_GRADE_LANES=1, ``one_lane``: one lane)."""
    from ..grading.sandboxes import is_resident, learner_zygote

    if len(targets) < 2 or cores() < 2 or settings.one_lane \
            or not is_resident(learner_zygote(settings.resident_runtime)):
        return list(targets), []
    states = {}

    def seconds(t):
        state = states.setdefault(t.path.parent.resolve(), State(t.path.parent, settings.cache))
        return (state.last(t.slug) or {}).get("seconds")

    from ..grading import engine  # noqa: F401 - loaded once, before the fork, for both lanes

    return split(targets, seconds)


def kept_results(targets, args) -> dict:
    """{target: its kept result} for the targets unchanged since a full-marks check (fullmarks.py)."""
    from .fullmarks import Kept

    folders, found = {}, {}
    for t in targets:
        key = t.path.parent.resolve()
        if key not in folders:
            folders[key] = Kept.of(key, args.settings, hidden=not args.public_only, timeout=args.timeout)
        result = folders[key].get(t.slug)
        if result is not None:
            found[t] = result
    return found


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def alone(args):
    """How the forked copy grades a target: with a Session of its own."""
    sessions = []

    def grade(target):
        if not sessions:
            sessions.append(Session(args.settings, timeout=args.timeout, public_only=args.public_only, fresh=True))
            sessions[0].prepare(target.path.parent)
        return sessions[0].grade(target)

    return grade


def remember(results, targets, cache: Path) -> None:
    """Record each result in its folder's state (for list, hint and watch), in ``cache``."""
    states = {}
    for result, t in zip(results, targets):
        folder = t.path.parent
        state = states.setdefault(folder.resolve(), State(folder, cache))
        state.record(result, t.path)
    for state in states.values():
        state.save()


def after_words(results, targets, cache: Path) -> str:
    """What to do next: the next exercise and its lesson after full marks, else where to get help."""
    from .hint import hints_of
    from .progress import next_words

    behind = [r for r in results if r.points < r.max_points]
    if behind and behind[0].missing:
        return f"the checks look for {behind[0].exercise}.py: save your work under that name"
    if behind:
        slug = behind[0].exercise
        try:
            count = f"{len(hints_of(slug).hints)} hints, one at a time"
        except (OSError, ValueError) as exc:  # a hints file being written: the grade stands, and says why
            return f"stuck on {slug}? its hints cannot be read: {exc}"
        return f"stuck on {slug}? '{COMMAND} hint {slug}' ({count})"
    folder = targets[-1].path.parent
    return next_words(State(folder, cache), folder)

