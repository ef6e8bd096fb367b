"""The grader's own code on a student's data, in a process that is killed at a bound: ``run``.

Reading and comparing an exact answer is trusted code, but what it costs is
the student's choice, and part of that cost (SymPy's big-integer arithmetic, in
C) is out of reach of any signal. So graders/kit/exact.py does that work in
another process (jobs.py): a clean helper, forked from the grading process
the first time it is needed, forks runners; a runner runs jobs one after
another, each under a CPU-time limit, within an address-space limit, and is
killed (through a pidfd) when a job passes its wall-clock bound. A job that
does not end normally ends its runner, so the next job starts in a fresh fork
of the clean helper; a runner is also retired after ``JOBS_PER_RUNNER`` jobs.
Where fork is not available, or the helper cannot be started, a job runs in
the calling process (the parser's own bounds still hold there).
"""

from __future__ import annotations

import json
import os
import pickle
import select
import signal
import socket
import threading
from typing import NamedTuple

from . import jobs
from .jobs import MAX_ANSWER, MAX_REQUEST

START_SECONDS = 60.0  # for the helper to start and warm up
JOBS_PER_RUNNER = 500


class HelperError(RuntimeError):
    """The helper process could not be started or stopped answering."""


class JobResult(NamedTuple):
    """``ok``: the job returned ``value``; otherwise ``why`` is "time", "memory" or "crashed"."""

    ok: bool
    value: object = None
    why: str = ""


def run(fn, args=(), *, seconds: float, memory_mb: int = 1024, warm=None) -> JobResult:
    """``fn(*args)`` in a runner process; its JSON-able result, or why there is none.

    ``fn`` and ``warm`` (run once in the helper when it starts, so that every
    runner finds imports done and caches filled) are module-level functions;
    ``args`` are pickled, so they are the grader's own data. ``seconds`` is the
    job's CPU time; it is killed after twice that of wall time, plus one.
    """
    if not _helper_possible():
        return _in_process(fn, args)  # in the helper's warm-up: nothing to bound
    try:
        return _shared(warm).run(fn, args, seconds, memory_mb)
    except HelperError:
        return _in_process(fn, args)


def expect(warm) -> None:
    """Say, on import, that a module will run bounded jobs warmed by ``warm``, so that
    ``start_expected`` can start the helper before the first job needs it."""
    if _name(warm) not in map(_name, _expected):
        _expected.append(warm)


def start_expected() -> None:
    """Start this process's helper now, without waiting for it, if an imported module said it
    will need one (``expect``): its warm-up then overlaps the caller's own work until the
    first ``run`` needs it."""
    if not _expected or not _helper_possible():
        return
    for warm in _expected:
        helper = _shared(warm)
    with helper.lock:
        if helper.sock is None or helper.owner != os.getpid():
            helper.start()


def warm_here() -> None:
    """Run the warm-ups modules said they need (``expect``) in this process: the batch does,
    before it forks its job processes, so the helper each job forks finds them done."""
    for warm in list(_expected):
        try:
            warm()
        except Exception:  # noqa: BLE001 - a cold helper is slower, not wrong
            pass


def _helper_possible() -> bool:
    """Whether jobs can run in a helper here: not inside one, and with fork and fd passing."""
    return not _inside and hasattr(os, "fork") and hasattr(socket, "send_fds")


def _in_process(fn, args):
    try:
        return JobResult(True, json.loads(json.dumps(fn(*args))))
    except MemoryError:
        return JobResult(False, why="memory")


def _name(fn):
    return fn.__module__, fn.__qualname__


class Helper:
    """The parent's handle on the helper process and its current runner."""

    def __init__(self, *warm):
        self.warm, self.owner = tuple(_name(w) for w in warm), None
        self.pid = self.sock = None
        self.runner = None  # (socket, pidfd, memory_mb, jobs done)
        self.lock = threading.Lock()

    def start(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:  # the helper: never returns
            code = 0
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the grading process's (jobs.py)
            try:
                ours.close()
                _mark_inside()
                jobs.become_helper(theirs, self.warm)
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        theirs.close()
        self.pid, self.sock, self.owner = pid, ours, os.getpid()

    def run(self, fn, args, seconds, memory_mb) -> JobResult:
        blob = pickle.dumps((*_name(fn), tuple(args), float(seconds)))
        if len(blob) > MAX_REQUEST:
            raise ValueError(f"a bounded job of {len(blob)} bytes is larger than {MAX_REQUEST}")
        with self.lock:
            sock, pidfd, _, done = self._runner(memory_mb)
            try:
                sock.send(blob)
            except OSError:  # it had ended: one more try, with a new runner
                self._retire()
                sock, pidfd, _, done = self._runner(memory_mb)
                sock.send(blob)
            outcome = _await(sock, pidfd, 2 * seconds + 1)
            if outcome.ok and done + 1 < JOBS_PER_RUNNER:
                self.runner = (sock, pidfd, memory_mb, done + 1)
            else:
                self._retire()
            return outcome

    def _runner(self, memory_mb):
        if self.runner is not None and self.runner[2] != memory_mb:
            self._retire()
        if self.runner is None:
            self.runner = (*self._fork_runner(memory_mb), memory_mb, 0)
        return self.runner

    def _fork_runner(self, memory_mb):
        """Ask the helper (started, or restarted, as needed) for a runner: (socket, pidfd)."""
        for _ in range(2):
            if self.sock is None or self.owner != os.getpid():
                self.start()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                self.sock.settimeout(START_SECONDS)
                socket.send_fds(self.sock, [json.dumps({"memory_mb": memory_mb}).encode()], [theirs.fileno()])
                reply, fds, _, _ = socket.recv_fds(self.sock, 256, 1)
                if reply and fds:
                    return ours, fds[0]
            except OSError:
                pass
            finally:
                theirs.close()
            ours.close()
            self.close()
        raise HelperError("the helper process for bounded jobs does not answer")

    def _retire(self):
        """Let the current runner go (it ends when its socket hangs up); kill it to be sure."""
        runner, self.runner = self.runner, None
        if runner is not None:
            sock, pidfd = runner[:2]
            _kill(pidfd)
            sock.close()
            os.close(pidfd)

    def close(self):
        self._retire()
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()  # the helper also ends by itself when it sees the parent hang up
        if self.pid is not None and self.owner == os.getpid():
            try:
                os.kill(self.pid, signal.SIGKILL)  # our child, not yet reaped: the pid is still its
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.pid = None


def _await(sock, pidfd, wall):
    """The job's answer, or (killing the runner at ``wall`` seconds) why there is none."""
    ready, _, _ = select.select([sock], [], [], wall)
    if not ready:
        _kill(pidfd)
        return JobResult(False, why="time")
    try:
        msg = json.loads(sock.recv(MAX_ANSWER).decode("utf-8"))
    except (OSError, ValueError):
        return JobResult(False, why="crashed")
    if not isinstance(msg, dict):
        return JobResult(False, why="crashed")
    if "answer" in msg:
        return JobResult(True, msg["answer"])
    status = msg.get("status")
    if msg.get("why") == "memory" or status == -signal.SIGKILL:  # the address-space limit, or an OOM kill
        return JobResult(False, why="memory")
    if status == -signal.SIGXCPU:  # the CPU-time limit
        return JobResult(False, why="time")
    return JobResult(False, why="crashed")


def _kill(pidfd):
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


# ------------------------------------------------------------------ one helper per process
_helper = None
_inside = False  # True in the helper (and so in its runners): a job there runs in process
_expected = []  # the warm-ups of the imported modules that run bounded jobs (``expect``)


def _mark_inside():
    global _inside
    _inside = True


def _shared(warm) -> Helper:
    """This process's helper; one started without ``warm`` is replaced by one that runs it too."""
    global _helper
    if _helper is None or (_helper.owner is not None and _helper.owner != os.getpid()):
        _helper = Helper()
    if warm is not None and _name(warm) not in _helper.warm:
        _helper.close()
        _helper.warm = (*_helper.warm, _name(warm))
    return _helper


def _forget_in_child():
    """A forked grading process (a batch's job) gets a helper of its own."""
    global _helper
    if _helper is not None:
        for sock in (_helper.sock, _helper.runner and _helper.runner[0]):
            if sock:
                sock.close()
    _helper = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
