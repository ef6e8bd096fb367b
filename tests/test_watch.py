"""attn-grade watch in a pseudo-terminal, as a learner runs it: a real save, a re-check,
the screen cleared between runs, Ctrl-C."""

import os
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from graders.grading.engine import ROOT
from graders.grading.settings import Settings

CLEAR = b"\x1b[H\x1b[2J"


class Terminal:
    """A command running on a pseudo-terminal, and everything it has written to it."""

    def __init__(self, argv, cwd, sigint=signal.SIG_DFL):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, with the terminal as its controlling tty
            os.chdir(cwd)
            signal.signal(signal.SIGINT, sigint)  # as the command's own parent left it (exec keeps SIG_IGN)
            os.execv(argv[0], argv)
        self.seen = b""

    def wait_for(self, text: bytes, after: int = 0, timeout: float = 60.0) -> int:
        """Read until ``text`` appears after position ``after``; return where it ends."""
        deadline = time.monotonic() + timeout
        while True:
            at = self.seen.find(text, after)
            if at >= 0:
                return at + len(text)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {text!r} after {timeout} s; the screen ends with:\n"
                                     + self.seen[-1500:].decode(errors="replace"))
            if select.select([self.fd], [], [], min(left, 0.1))[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:  # the command ended and closed the terminal
                    time.sleep(0.05)

    def type(self, keys: bytes):
        os.write(self.fd, keys)

    def exit_status(self, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    pass
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("the command did not end after Ctrl-C")


def _command():
    script = Path(sys.executable).with_name("attn-grade")
    return [str(script)] if script.exists() else [sys.executable, "-m", "graders.cli"]


@pytest.fixture
def learner(tmp_path):
    folder = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises", folder)
    return folder


def test_watch_checks_again_on_save_clears_the_screen_and_stops_on_ctrl_c(learner):
    term = Terminal(_command() + ["watch", "softmax"], learner)
    first = term.wait_for(b"stuck? 'attn-grade hint softmax'")
    assert term.seen.startswith(CLEAR) or CLEAR in term.seen[:first]
    assert b"not written yet" in term.seen[:first]

    shutil.copy(ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py", learner / "softmax.py")
    second = term.wait_for(b"saved softmax.py, checked", first)
    end = term.wait_for(b"save softmax.py to check again", second)  # before term.seen is read: it grows
    shown = term.seen[first:end]
    assert CLEAR in term.seen[first:second], "the screen is cleared before each run"
    assert b"stays finite" in shown and b"not written yet" not in shown

    shutil.copy(ROOT / "solutions" / "softmax.py", learner / "softmax.py")
    third = term.wait_for(b"softmax at full marks", second)
    line_end = term.wait_for(b"\n", third)
    assert term.seen[third:line_end].startswith(b". next: hand_scores")

    term.type(b"\x03")  # Ctrl-C, through the terminal
    term.wait_for(b"stopped watching", third)
    assert term.exit_status() == 0
    assert b"Traceback" not in term.seen


def test_a_second_ctrl_c_while_watch_winds_down_shows_no_traceback(learner):
    term = Terminal(_command() + ["watch", "softmax"], learner)
    first = term.wait_for(b"stuck? 'attn-grade hint softmax'")
    term.type(b"\x03")
    term.wait_for(b"stopped watching", first)
    try:
        term.type(b"\x03")  # the impatient learner's second one
    except OSError:  # it had already ended
        pass
    assert term.exit_status() == 0
    assert b"Traceback" not in term.seen, term.seen[-1500:].decode(errors="replace")


def test_watch_of_all_exercises_shows_the_first_not_at_full_marks(learner):
    shutil.copy(ROOT / "solutions" / "hand_scores.py", learner / "hand_scores.py")
    term = Terminal(_command() + ["watch", "--color", "never"], learner)
    first = term.wait_for(b"stuck? 'attn-grade hint variance_proof'")
    screen = term.seen[:first]
    assert b"1. \xe2\x9c\x93 hand_scores" in screen  # ✓
    assert b"variance_proof \xe2\x80\x94" in screen  # its report: the first not at full marks
    shutil.copy(ROOT / "solutions" / "variance_proof.py", learner / "variance_proof.py")
    term.wait_for(b"stuck? 'attn-grade hint saturation'", first)
    term.type(b"\x03")
    assert term.exit_status() == 0


def test_ctrl_c_stops_watch_even_if_it_was_started_with_sigint_ignored(learner):
    """A background job of a shell script starts with SIGINT ignored, and exec passes that on:
    watch, on a terminal, still stops at a Ctrl-C typed there."""
    term = Terminal(_command() + ["watch", "softmax"], learner, sigint=signal.SIG_IGN)
    term.wait_for(b"stuck? 'attn-grade hint softmax'")
    term.type(b"\x03")
    term.wait_for(b"stopped watching")
    assert term.exit_status() == 0


@pytest.mark.parametrize("only", [None, "softmax"])
def test_at_full_marks_watch_says_so_once(tmp_path, monkeypatch, capsys, only):
    from graders import registry
    from graders.cli.state import State
    from graders.cli.watch import Watch
    from graders.cli.where import resolve
    from graders.grading.results import CheckResult, ExerciseResult

    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "exercises"
    folder.mkdir()
    state, results = State(folder, Settings.from_environ().cache), {}
    for ex in registry.EXERCISES:
        (folder / f"{ex.slug}.py").write_text("# done\n")
        results[ex.slug] = ExerciseResult(ex.slug, ex.title, [CheckResult(ex.slug, "all", 1.0, 1.0, "passed", "",
                                                                           "public")])
        state.record(results[ex.slug], folder / f"{ex.slug}.py")
    state.save()
    target = resolve(only, folder) if only else None
    watch = Watch(None, folder, target, color=False, tty=False, cache=Settings.from_environ().cache)
    watch.results = results
    watch.show("first check", None)
    out = capsys.readouterr().out
    assert out.count("at full marks") == (2 if only else 1), out  # "softmax at full marks. every ... is"

