"""A busy machine does not cost a right answer its marks (graders/sandbox/clock.py).

The machine is made busy the same way everywhere: the grading process, a fresh
zygote (so its sandboxes) and a process that only computes are all kept on one
CPU, so a student's process gets about half of it, whether or not a cgroup of
its own weighs it against the rest (as root, it does). What a student's
function costs is CPU time (it computes until time.process_time() says so), so
nothing here depends on how fast the machine is.
"""

import os
import subprocess
import sys
import textwrap
import time

import pytest

from graders.sandbox import clock
from graders.sandbox.errors import Timeout
from graders.sandbox.submission import Submission
from graders.sandbox.zygote import Zygote

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or clock.usage(os.getpid()) is None,
                                reason="needs Linux's /proc and CPU affinity")

HOGS = 1
SOURCE = textwrap.dedent("""
    import time

    def burn(seconds):
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
        return seconds

    def nap(seconds):
        time.sleep(seconds)
        return seconds
""")


@pytest.fixture
def one_busy_cpu():
    """This process, and what it starts, on one CPU shared with HOGS processes that compute."""
    cpu = min(os.sched_getaffinity(0))
    saved = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    zygote = Zygote()
    try:
        yield zygote
    finally:
        zygote.close()
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, saved)


def _submission(tmp_path, zygote, timeout):
    path = tmp_path / "softmax.py"
    path.write_text(SOURCE)
    return Submission(path, zygote=zygote, call_timeout=timeout, import_timeout=30.0)


def test_a_call_that_waits_for_a_cpu_is_not_a_timeout(tmp_path, one_busy_cpu):
    # 0.8 s of CPU at half a CPU is about 1.6 s of wall time: past the timeout, within its stretch
    with _submission(tmp_path, one_busy_cpu, timeout=1.0) as sub:
        sub.call("burn", 0.0)  # the file imported, the process warm
        assert sub.call("burn", 0.8) == 0.8


def test_a_call_that_computes_past_its_cpu_time_still_times_out(tmp_path, one_busy_cpu):
    with _submission(tmp_path, one_busy_cpu, timeout=0.5) as sub:
        sub.call("burn", 0.0)
        with pytest.raises(Timeout, match="timed out after 0.5 s"):
            sub.call("burn", 30.0)


def test_a_call_that_sleeps_times_out_on_a_busy_machine_too(tmp_path, one_busy_cpu):
    with _submission(tmp_path, one_busy_cpu, timeout=0.5) as sub:
        sub.call("burn", 0.0)
        with pytest.raises(Timeout, match="timed out after 0.5 s"):
            sub.call("nap", 30.0)


def test_a_sleeping_process_gets_no_more_time_than_its_timeout():
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        time.sleep(0.2)  # asleep by now
        watch = clock.Stopwatch(sleeper.pid, 0.05)
        time.sleep(0.1)
        assert watch.left() == 0  # past its deadline, found asleep: no more time
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_process_waiting_for_a_cpu_gets_more_time(one_busy_cpu):
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # on the busy CPU too
    try:
        watch = clock.Stopwatch(burner.pid, 0.3)
        time.sleep(0.35)
        assert watch.left() > 0  # about 0.17 s of CPU in 0.35 s: it waited for the CPU
    finally:
        burner.kill()
        burner.wait()


def test_a_process_that_has_ended_is_not_read():
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert clock.usage(proc.pid) is None


class FakeTime:
    """time.monotonic as the test says it is."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


def test_proc_is_read_only_once_a_call_has_taken_longer_than_the_grace(monkeypatch):
    fake, looked = FakeTime(), []
    monkeypatch.setattr(clock, "time", fake)
    monkeypatch.setattr(clock, "usage", lambda pid: looked.append(pid) or (5.0, True))
    watch = clock.Stopwatch(4242, 10.0)
    fake.now += clock.GRACE / 2
    assert watch.left() == pytest.approx(clock.GRACE / 2)  # wait until the grace is over, no more
    assert looked == []  # an answer that came now would have cost no read of /proc
    fake.now += clock.GRACE
    assert watch.left() == pytest.approx(10.0 - 1.5 * clock.GRACE)
    assert looked == [4242]  # the first look: the CPU count starts here
    monkeypatch.setattr(clock, "usage", lambda pid: looked.append(pid) or (5.0 + 10.0, True))
    fake.now += 10.0
    assert watch.left() == 0  # past the deadline, with the timeout's CPU seconds used: time is up
    assert looked == [4242, 4242]


def test_a_call_still_waiting_for_a_cpu_after_its_grace_is_stretched_as_before(monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(clock, "time", fake)
    monkeypatch.setattr(clock, "usage", lambda pid: (2.0, True))
    watch = clock.Stopwatch(4242, 1.0)
    fake.now += 0.5
    assert watch.left() == pytest.approx(0.5)
    fake.now += 0.6  # past the deadline, no CPU used since the first look, still runnable
    assert 0 < watch.left() <= 0.5
