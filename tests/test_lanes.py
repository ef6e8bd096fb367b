"""attn-grade check on two lanes (graders/cli/second_lane.py): the longest files go to a forked copy,
the report is the same as on one lane, and a copy that fails or is ended loses nothing."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from graders.cli import second_lane
from graders.cli.check import two_lanes
from graders.cli.where import SLUGS, Target
from graders.grading.engine import ROOT
from graders.grading.results import CheckResult, ExerciseResult
from graders.grading.settings import Settings

MUTANTS = ROOT / "tests" / "mutants"


def test_the_longest_file_goes_to_the_copy_and_each_lane_keeps_the_order():
    took = {"a": 0.2, "b": 0.9, "c": 0.3, "d": 0.1, "e": 0.1}
    mine, theirs = second_lane.split(list("abcde"), took.get)
    assert theirs == ["b"] and mine == ["a", "c", "d", "e"]
    assert second_lane.split(["a", "b"], {"a": 0.5}.get) == (["a"], ["b"])  # never checked: UNKNOWN, 1 s


def test_equal_files_are_shared_out():
    mine, theirs = second_lane.split(list("abcd"), lambda t: 1.0)
    assert sorted(mine + theirs) == list("abcd") and len(mine) == len(theirs) == 2
    assert mine == sorted(mine) and theirs == sorted(theirs)


def _result(name):
    return ExerciseResult(name, name.title(), [CheckResult(name, "runs", 1.0, 2.0, "partial", "got 1", "public")])


def test_the_copy_sends_every_result_as_it_was():
    lane = second_lane.Lane(list("xyz"), _result)
    got = lane.rest()
    assert got == {t: _result(t) for t in "xyz"} and lane.missing() == []


def test_what_a_failing_copy_did_not_send_is_left_to_this_process():
    def grade(t):
        if t == "y":
            raise RuntimeError("the copy's sandbox could not start")
        return _result(t)

    lane = second_lane.Lane(list("xyz"), grade)
    assert lane.rest() == {"x": _result("x")} and lane.missing() == ["y", "z"]


def test_a_copy_that_is_ended_is_reaped_at_once():
    lane = second_lane.Lane(["slow"], lambda t: time.sleep(60))
    pid, start = lane.pid, time.monotonic()
    lane.close()
    assert time.monotonic() - start < 5 and lane.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no longer our child
    lane.close()  # again: nothing to kill (its number may be another process's by now)


def test_a_copy_ends_with_the_command_that_forked_it(tmp_path):
    code = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from graders.cli import second_lane
lane = second_lane.Lane(["slow"], lambda t: time.sleep(60))
print(lane.pid, flush=True)
time.sleep(60)
"""
    command = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    copy = int(command.stdout.readline())
    command.kill()  # kill -9: no clean-up of its own runs
    command.wait()
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{copy}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{copy}"), "the copy went on after the command was killed"


@pytest.mark.skipif(second_lane.cores() < 2, reason="one core: checks run on one lane")
def test_every_exercise_is_checked_on_two_lanes_here(tmp_path):
    targets = [Target(s, tmp_path / f"{s}.py") for s in SLUGS]
    mine, theirs = two_lanes(targets, Settings.from_environ())
    assert mine and theirs and sorted(mine + theirs, key=targets.index) == targets


def _check(folder, **env):
    done = subprocess.run([sys.executable, "-m", "graders.cli", "check", "--dir", str(folder), "--color", "never",
                           "--fresh"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1", **env})
    # the time taken is the one line that may differ
    return done.returncode, [line for line in done.stdout.splitlines() if not line.startswith("Total:")]


def test_two_lanes_report_what_one_lane_reports(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for slug in SLUGS:  # a mistake in every other exercise, the reference in the rest
        mutants = sorted((MUTANTS / slug).glob("*.py"))
        source = mutants[0] if SLUGS.index(slug) % 2 else ROOT / "solutions" / f"{slug}.py"
        shutil.copy(source, folder / f"{slug}.py")
    one = _check(folder, ATTN_GRADE_LANES="1")
    two = _check(folder)
    assert one[0] == two[0] == 1
    assert one[1] == two[1]
    assert sum("✓" in line for line in two[1]) > 0 and sum("✗" in line for line in two[1]) > 0


def test_a_ctrl_c_that_python_drops_still_stops_the_check():
    """Python ignores an exception raised while the garbage collector runs a callback
    (Hypothesis has one): the Ctrl-C is noted, and the check stops at the next file."""
    import gc
    import signal

    from graders.cli.term import CtrlC

    def callback(phase, info):
        if phase == "start":
            os.kill(os.getpid(), signal.SIGINT)  # its handler runs here, inside the callback

    dropped, hook = [], sys.unraisablehook
    ctrl_c = CtrlC()
    gc.callbacks.append(callback)
    sys.unraisablehook = lambda unraisable: dropped.append(unraisable.exc_type)
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
        gc.callbacks.remove(callback)
    try:
        assert dropped == [KeyboardInterrupt]  # raised in the callback, and dropped by Python
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
    finally:
        ctrl_c.close()


def test_ctrl_c_during_a_check_on_two_lanes_stops_it_and_keeps_no_result_it_spoilt(tmp_path):
    from test_watch import Terminal, _command

    folder = tmp_path / "exercises"
    shutil.copytree(ROOT / "solutions", folder, ignore=shutil.ignore_patterns("*.md"))
    cache = tmp_path / "cache"  # nothing recorded yet: the check takes seconds
    term = Terminal(["/usr/bin/env", f"ATTN_GRADE_CACHE={cache}", *_command(), "check", "--color", "never",
                     "--fresh"], folder)
    term.wait_for("hand_scores — ".encode())
    term.type(b"\x03")
    term.wait_for(b"interrupted")
    assert term.exit_status() == 130
    assert b"Traceback" not in term.seen and b"grader itself failed" not in term.seen
    listed = subprocess.run([*_command(), "list"], cwd=folder, capture_output=True, text=True,
                            env={**os.environ, "ATTN_GRADE_CACHE": str(cache), "NO_COLOR": "1"}).stdout
    assert "✗" not in listed and "◐" not in listed  # every exercise remembered is at full marks


def test_the_split_goes_by_a_files_quickest_check_since_it_last_changed(tmp_path):
    """A check that records plans takes several times as long as the next: after one, the
    lanes would be split by times that no longer hold."""
    from graders.cli.state import State

    path = tmp_path / "softmax.py"
    path.write_text("def softmax(z, axis=-1):\n    pass\n")

    def check(seconds):
        state = State(tmp_path, Settings.from_environ().cache)
        state.record(ExerciseResult("softmax", "Softmax", [], seconds=seconds), path)
        state.save()
        return State(tmp_path, Settings.from_environ().cache).last("softmax")["seconds"]

    assert check(5.0) == 5.0  # the first check, recording
    assert check(0.3) == 0.3
    assert check(2.0) == 0.3  # recorded again (an upgrade): the file is as it was
    path.write_text("def softmax(z, axis=-1):\n    return z\n")
    assert check(2.0) == 2.0  # a changed file: its own time
