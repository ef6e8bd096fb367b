"""attn-grade watch: check again each time a file in the exercises folder is saved.

File events come from watchdog (inotify on Linux, FSEvents on macOS, the
native API on Windows). One grading session lives as long as the watch: the
zygote keeps NumPy and SymPy loaded and the recorded plans stay in memory, so
a re-check costs a fresh sandbox (it holds a copy of the files, so a save needs
a new one) and the checks of the saved file. The screen shows every exercise's
status and the failing checks of the first one not at full marks.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import time
from pathlib import Path

from .check import add_grading_options, folder_of, remember
from .name import COMMAND
from .session import Session, mentions_sympy
from .state import State
from .term import CLEAR, fit
from ..terminal.help import HelpFormatter
from .where import SLUGS, Target, Unknown, near_files, refuse, resolve, shown

SETTLE = 0.05  # seconds without a new event before checking: an editor's save is several events


def register(sub) -> None:
    p = sub.add_parser(
        "watch", formatter_class=HelpFormatter,
        help="check again each time you save an exercise file (Ctrl-C to stop)",
        description="Check your exercises, then check again each time you save a file in the exercises "
                    "folder. The screen shows where each exercise stands and the failing checks of the "
                    "first one not at full marks (or of EXERCISE). Ctrl-C stops.")
    p.add_argument("exercise", nargs="?", metavar="EXERCISE",
                   help=f"watch only this exercise (slug, number from '{COMMAND} list' or file)")
    p.add_argument("--dir", type=Path, help="your exercises folder (default: found from here)")
    p.add_argument("--public-only", action="store_true", help="run only the public checks")
    add_grading_options(p)
    p.set_defaults(run=run, command_parser=p)


def run(parser, args) -> int:
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    folder = folder_of(parser, args).resolve()
    try:
        only = resolve(args.exercise, folder) if args.exercise else None
    except Unknown as exc:
        refuse(parser, str(exc))
    if only is not None and only.path.parent.resolve() != folder:
        folder = only.path.parent.resolve()
    files = [only.path] if only is not None else sorted(folder.glob("*.py"))
    if sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # started with Ctrl-C ignored (a background job of a script passes that on), yet on a
        # terminal: Ctrl-C is how a learner stops watching
        signal.signal(signal.SIGINT, signal.default_int_handler)
    session = Session(args.settings, timeout=args.timeout, public_only=args.public_only, sympy=mentions_sympy(files),
                      fresh=args.fresh)
    session.prepare(folder)
    from watchdog.observers import Observer

    from .term import wants_color

    events = queue.Queue()
    observer = Observer()
    observer.schedule(_Handler(events), str(folder), recursive=False)
    observer.start()
    watch = Watch(session, folder, only, color=wants_color(args), tty=sys.stdout.isatty(), cache=args.settings.cache)
    try:
        watch.check([only.slug] if only else SLUGS, why="")
        while True:
            names, first = _next_save(events)
            watch.check(watch.affected(names), why=f"saved {', '.join(sorted(names))}", since=first)
    except KeyboardInterrupt:
        # A second Ctrl-C (an impatient learner) while the sandbox and the watcher wind down
        # would otherwise end Python's own shutdown with a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("\nstopped watching", flush=True)
        return 0
    finally:
        observer.stop()
        session.close()
        observer.join(timeout=2)


class _Handler:
    """watchdog's event handler: the names of .py files written, created or moved into place."""

    def __init__(self, events: queue.Queue):
        self.events = events

    def dispatch(self, event):
        if event.is_directory or event.event_type not in ("modified", "created", "moved", "closed"):
            return
        for path in (event.src_path, getattr(event, "dest_path", "")):
            name = os.path.basename(os.fsdecode(path))
            if name.endswith(".py") and (event.event_type != "moved" or path == event.dest_path):
                self.events.put((time.monotonic(), name))


def _next_save(events: queue.Queue):
    """Wait for a save; return (the file names saved, when the first event came)."""
    first, name = events.get()
    names = {name}
    while True:
        try:
            _, name = events.get(timeout=SETTLE)
            names.add(name)
        except queue.Empty:
            return names, first


class Watch:
    def __init__(self, session: Session, folder: Path, only: Target | None, *, color: bool, tty: bool,
                 cache: Path):
        self.session, self.folder, self.only, self.cache = session, folder, only, cache  # cache: progress.py's
        self.color, self.tty = color, tty
        self.results = {}

    def affected(self, names) -> list[str]:
        """The exercises a save of ``names`` may change: their own, one they are a near miss of,
        else (a helper module, say) the one on screen."""
        if self.only is not None:
            return [self.only.slug]
        found = [s for s in SLUGS if f"{s}.py" in names or any(n in near_files(self.folder, s) for n in names)]
        return found or [self.current() or SLUGS[-1]]

    def current(self) -> str | None:
        slugs = [self.only.slug] if self.only is not None else SLUGS
        return next((s for s in slugs if s in self.results and not _full(self.results[s])), None)

    def check(self, slugs, *, why: str, since: float | None = None) -> None:
        if since is not None:
            self.session.forget(self.folder)  # its sandbox holds the files as they were
        targets = [Target(s, self.folder / f"{s}.py") for s in slugs]
        done = []
        for t in targets:
            self.results[t.slug] = self.session.grade(t)
            done.append(self.results[t.slug])
        remember(done, targets, self.cache)
        took = time.monotonic() - since if since is not None else None
        self.show(why, took)

    def show(self, why: str, took: float | None) -> None:
        from ..grading.report import render_text
        from .progress import next_words, render

        out = [CLEAR if self.tty else "\n" + "─" * 78]
        when = f", checked {took:.2f} s after the save" if took is not None else ""
        head = f"{COMMAND} watch · {shown(self.folder)}/ · {why or 'first check'}{when}"
        out.append(fit(f"{head}   (Ctrl-C to stop)") + "\n")
        state = State(self.folder, self.cache)
        if self.only is None:
            out.append(render(state, self.folder, color=self.color))
            out.append("")
        slug = self.current()
        if slug is None:
            if self.only is not None:  # without it, the list above already says what is next
                out.append(fit(f"{self.only.slug} at full marks. {next_words(state, self.folder)}"))
        else:
            out.append(render_text([self.results[slug]], color=self.color, totals=False, only_failed=True))
            out.append(f"save {slug}.py to check again · stuck? '{COMMAND} hint {slug}'")
        print("\n".join(out), flush=True)


def _full(result) -> bool:
    return result.points >= result.max_points
