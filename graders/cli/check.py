"""attn-grade check: grade the learner's exercise files and print the feedback.

Start-up is overlapped with loading: the zygote (graders/sandbox/zygote.py)
starts first, and the learner's sandbox is prepared on a second thread while
this process imports the graders; checks then replay their plans from disk
(graders/grading/plancache.py), so a warm check costs little more than
starting Python.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

from .lanes import Lane, cores, split
from .term import CtrlC, HelpFormatter
from .state import State
from .where import SLUGS, Target, Unknown, find_folder, missing_file_hint, refuse, resolve, shown


def register(sub, epilog: str) -> None:
    chk = sub.add_parser(
        "check", help="grade your exercise files and show feedback",
        description="Grade your exercise files and print every check with its points and feedback. "
                    "Exit status 0 only at full marks.",
        formatter_class=HelpFormatter, epilog=epilog)
    chk.add_argument("exercises", nargs="*", metavar="EXERCISE",
                     help="slug (softmax), number from 'attn-grade list' (5) or file (exercises/softmax.py); "
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


def folder_of(parser, args) -> Path:
    if args.dir is not None:
        if not args.dir.is_dir():
            refuse(parser, f"--dir {args.dir}: no such folder (it should hold your <slug>.py files)")
        return args.dir
    found = find_folder()
    if found is None:
        refuse(parser, f"no exercises/ folder in {shown(Path.cwd())} or above it: run attn-grade inside the "
                     f"project (or the student bundle), or pass --dir FOLDER")
    return found


def targets_of(parser, words, folder: Path) -> list[Target]:
    try:
        found = [resolve(w, folder) for w in words] if words else [Target(s, folder / f"{s}.py") for s in SLUGS]
    except Unknown as exc:
        refuse(parser, str(exc))
    return list(dict.fromkeys(found))


class Session:
    """Grades a learner's files, one sandbox per folder. A sandbox holds a copy of the
    folder's files as they were when it started: ``forget`` after they change."""

    def __init__(self, *, timeout: float = 10.0, public_only: bool = False, sympy: bool = True):
        from ..sandbox.resident import learner

        # The zygote imports NumPy (and SymPy, if a file may need it) while this process loads the graders;
        # the resident one (sandbox/resident.py) has done so already, for an earlier command.
        self.zygote = learner()
        self.zygote.start(sympy=sympy)
        self.timeout, self.public_only = timeout, public_only
        self.workers, self.warming = {}, {}

    def prepare(self, folder: Path) -> None:
        """Start the folder's sandbox on another thread (it waits for the zygote, not for us)."""
        worker, key = self._worker(folder), Path(folder).resolve()
        if not worker.alive and key not in self.warming:
            thread = threading.Thread(target=_quietly, args=(worker.ensure,), daemon=True)
            thread.start()
            self.warming[key] = thread

    def _worker(self, folder: Path):
        from ..grading.engine import import_timeout
        from ..sandbox.handle import Worker

        key = Path(folder).resolve()
        if key not in self.workers:
            self.workers[key] = Worker(key, zygote=self.zygote, import_timeout=import_timeout(self.timeout))
        return self.workers[key]

    def grade(self, target: Target):
        from ..grading.engine import checks_of, grade_file

        # Load the graders while the sandbox is still starting on its thread.
        checks_of(target.slug, not self.public_only)
        thread = self.warming.pop(target.path.parent.resolve(), None)
        if thread is not None:
            thread.join()
        result = grade_file(target.slug, target.path, hidden=not self.public_only, call_timeout=self.timeout,
                            worker=self._worker(target.path.parent))
        if result.missing:
            explain_missing(result, target)
        return result

    def forget(self, folder: Path) -> None:
        key = Path(folder).resolve()
        thread = self.warming.pop(key, None)
        if thread is not None:
            thread.join()  # never end a sandbox while another thread is still starting it
        worker = self.workers.pop(key, None)
        if worker is not None:
            worker.kill()

    def close(self) -> None:
        from ..sandbox.resident import Resident

        for folder in list(self.workers):
            self.forget(folder)
        if isinstance(self.zygote, Resident):
            self.zygote.close()  # it ends this command's sandboxes, and stays for the next


def mentions_sympy(paths) -> bool:
    """Whether any of the files names SymPy: only then does the zygote preload it (0.3 s or more).
    A file that imports it anyway still works: it imports SymPy itself."""
    for path in paths:
        try:
            if b"sympy" in Path(path).read_bytes():
                return True
        except OSError:
            continue
    return False


def _quietly(fn):
    try:
        fn()
    except Exception:  # noqa: BLE001 - grading the file will meet the same problem and name it
        pass


def explain_missing(result, target: Target) -> None:
    """A missing file that has a near miss (Softmax.py): say which, in the problem and every check."""
    hint = missing_file_hint(target.path.parent, target.slug)
    if hint:
        old = result.problem
        result.problem = f"{old}; {hint}"
        result.checks = [replace(c, message=c.message.replace(old, result.problem)) for c in result.checks]


def run(parser, args) -> int:
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    folder = folder_of(parser, args)
    targets = targets_of(parser, args.exercises, folder)
    mine, theirs = two_lanes(targets)
    lane = Lane(theirs, alone(args)) if theirs else None  # forked first: nothing is started yet
    try:
        return _run(args, targets, mine, lane)
    finally:
        if lane:
            lane.close()


def _run(args, targets, mine, lane) -> int:
    session = Session(timeout=args.timeout, public_only=args.public_only,
                      sympy=mentions_sympy(t.path for t in mine))
    for t in mine:
        session.prepare(t.path.parent)
    from ..grading.report import render_text  # the graders load while the sandbox starts
    from .term import fit, wants_color
    from .progress import has_hidden

    color = wants_color(args)
    if not args.json and not args.public_only and not has_hidden():
        print("Public checks only: the hidden checks, which compare with the reference solution, "
              "run when your instructor grades your work.\n", flush=True)
    done, shown, start = {}, [], time.perf_counter()
    ctrl_c = CtrlC()

    def show_ready():  # in teaching order, each as soon as it and those before it are in
        while len(shown) < len(targets) and targets[len(shown)] in done:
            result = done[targets[len(shown)]]
            shown.append(result)
            if not args.json:
                print(render_text([result], color=color, totals=False, only_failed=args.only_failed), flush=True)

    def grade(t):
        result = session.grade(t)
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
        session.close()
        graded = [t for t in targets if t in done]
        remember([done[t] for t in graded], graded)  # even if the reader went away (| head) or Ctrl-C
    results = shown
    if args.json:
        from ..grading.results import to_gradescope

        print(json.dumps(to_gradescope(results), indent=2))
    else:
        print(render_text(results, color=color, summary_only=True, seconds=time.perf_counter() - start))
        print(fit(after_words(results, targets)))
    return 0 if all(r.points >= r.max_points for r in results) else 1


def two_lanes(targets) -> tuple[list, list]:
    """(the targets this process grades, those a forked copy grades): two lanes for several files,
    with two cores and the resident zygote (ATTN_GRADE_LANES=1: one lane)."""
    from ..sandbox.resident import Resident, learner

    if len(targets) < 2 or cores() < 2 or os.environ.get("ATTN_GRADE_LANES") == "1" \
            or not isinstance(learner(), Resident):
        return list(targets), []
    states = {}

    def seconds(t):
        state = states.setdefault(t.path.parent.resolve(), State(t.path.parent))
        return (state.last(t.slug) or {}).get("seconds")

    from ..grading import engine  # noqa: F401 - loaded once, before the fork, for both lanes

    return split(targets, seconds)


def alone(args):
    """How the forked copy grades a target: with a Session of its own."""
    sessions = []

    def grade(target):
        if not sessions:
            sessions.append(Session(timeout=args.timeout, public_only=args.public_only))
            sessions[0].prepare(target.path.parent)
        return sessions[0].grade(target)

    return grade


def remember(results, targets) -> None:
    """Record each result in its folder's state (for list, hint and watch)."""
    states = {}
    for result, t in zip(results, targets):
        folder = t.path.parent
        state = states.setdefault(folder.resolve(), State(folder))
        state.record(result, t.path)
    for state in states.values():
        state.save()


def after_words(results, targets) -> str:
    """What to do next: the next exercise and its lesson after full marks, else where to get help."""
    from .hint import hints_of
    from .progress import next_words

    behind = [r for r in results if r.points < r.max_points]
    if behind and behind[0].missing:
        return f"the checks look for {behind[0].exercise}.py: save your work under that name"
    if behind:
        slug = behind[0].exercise
        return f"stuck on {slug}? 'attn-grade hint {slug}' ({len(hints_of(slug).hints)} hints, one at a time)"
    folder = targets[-1].path.parent
    return next_words(State(folder), folder)

