"""When a call has timed out: CPU time, not a busy machine's wall clock.

A call's timeout is wall time, and on a machine busy with other work (a class
graded with many jobs, a test suite beside it) a right answer can take several
times its usual wall time while waiting for a CPU; it then lost marks that it
kept on a quiet machine. ``Stopwatch`` watches the sandbox's processes, as the
kernel counts them in /proc (never what the student's process says): at the
deadline, a call that has used less CPU time than the timeout and is still
running or waiting for a CPU (state R or D) is given more wall time, up to
``STRETCH`` times the timeout. A call that sleeps, or waits on something that
never comes, ends at the deadline as before; one that computes ends when it
has used the timeout in CPU time. Where /proc tells nothing (macOS), the
timeout is wall time alone. /proc is first read GRACE seconds into a call, so
the many calls that answer sooner cost the grading process nothing here.
"""

from __future__ import annotations

import os
import time

STRETCH = 3.0  # a call may take this many times its timeout in wall time, if it waited for a CPU
# Most calls answer within a few milliseconds, and reading /proc for the whole sandbox costs about
# as much as the call: the CPU count starts at the first look, GRACE seconds (at most a quarter of
# the timeout) after the call began, so a call that computes may use up to GRACE more CPU seconds.
GRACE = 0.05
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def usage(pid: int):
    """(CPU seconds, whether any process is running or waiting for a CPU) of ``pid`` and every
    process below it, reaped children included; None where /proc cannot tell."""
    cpu, busy, seen, todo = 0, False, set(), [pid]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2:].split()  # past the command, which may hold spaces
            tasks = os.listdir(f"/proc/{p}/task")
        except (OSError, ValueError):
            if p == pid:
                return None
            continue  # ended meanwhile
        busy = busy or fields[0] in (b"R", b"D")
        cpu += sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
        for tid in tasks:
            try:
                with open(f"/proc/{p}/task/{tid}/children", "rb") as f:
                    todo += [int(c) for c in f.read().split()]
            except (OSError, ValueError):
                if p == pid and tid == str(pid):
                    return None  # no children files (a kernel without CONFIG_PROC_CHILDREN)
    return cpu / _TICK, busy


class Stopwatch:
    """The time limit of one wait for a sandbox's answer: ``timeout`` seconds, stretched while
    the sandbox ``pid`` waits for a CPU it has not had (see the module's text)."""

    def __init__(self, pid: int | None, timeout: float):
        self.pid, self.timeout = pid, timeout
        self.started = time.monotonic()
        self.deadline = self.started + timeout
        self.grace = self.started + min(GRACE, timeout / 4)  # until then, /proc is not read
        self.cpu0 = None  # the sandbox's CPU seconds at the first look (see GRACE); None: unknown
        self.looked = pid is None
        self.cpu = 0.0  # CPU seconds used since the first look, as of the last look

    def left(self, progress: bool = False) -> float:
        """Seconds to wait before looking again; 0 when time is up. ``progress``: an answer's
        bytes arrived since the last look (its writer may be blocked on the pipe, not busy)."""
        now = time.monotonic()
        if not self.looked:
            if now < self.grace:
                return self.grace - now
            self.looked = True
            first = usage(self.pid)
            self.cpu0 = None if first is None else first[0]
        if now < self.deadline:
            return self.deadline - now
        if self.cpu0 is None or now >= self.started + STRETCH * self.timeout:
            return 0.0
        seen = usage(self.pid)
        if seen is None:
            return 0.0
        self.cpu = seen[0] - self.cpu0
        if self.cpu >= self.timeout or not (seen[1] or progress):
            return 0.0
        step = min(max(self.timeout - self.cpu, 0.05), 0.5, self.started + STRETCH * self.timeout - now)
        self.deadline = now + step
        return step

