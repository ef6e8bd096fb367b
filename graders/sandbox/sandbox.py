"""The parent's handle on one student's sandbox: ``Sandbox``.

The zygote (graders/sandbox/zygote.py) forks the sandbox (inside/jail.py, inside/init.py);
its init forks a fresh, confined process per exercise file. The parent talks
to that process over two private pipes with the framing of inside/worker.py, drains
its stdout and stderr without parsing them, bounds the size and shape of every
answer before reading it, and on a timeout kills the whole sandbox (which ends
every process it started). After each answer the sandbox's init measures its
scratch folder (inside/scratch.py): an answer given past its bounds is not taken.
"""

from __future__ import annotations

import json
import os
import select
import struct
import threading
from pathlib import Path

from .inside import worker as protocol
from .arena import Arena
from .box import Box
from .clock import Stopwatch
from .errors import Crashed, Timeout, exit_words, scratch_words
from .report import SandboxReport, in_words, isolated  # noqa: F401 - in_words, isolated: read from here
from .zygote import Jail, SandboxFailed, ZygoteError, shared

MAX_MESSAGE = 40 << 20  # bytes of one answer; a 2-million float64 array fits
# JSON separators and containers in one answer. Arrays travel as base64 text, so the
# honest answers of every solution, mutant and alternative hold at most ~1,200; a forged
# "[[],[],...]" of 40 MB would cost the grader ~2 GB and ~20 s to read, outside any timeout.
MAX_TOKENS = 100_000
OUTPUT_KEEP = 8 << 10  # bytes of the student's own printing we keep for messages


class _Drain(threading.Thread):
    """Read a pipe to the end, keeping only its first bytes."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.kept, self.total = stream, bytearray(), 0

    def run(self):
        while True:
            chunk = self.stream.read1(65536) if hasattr(self.stream, "read1") else self.stream.read(65536)
            if not chunk:
                return
            self.total += len(chunk)
            if len(self.kept) < OUTPUT_KEEP:
                self.kept += chunk[: OUTPUT_KEEP - len(self.kept)]


class Sandbox:
    """A sandbox serving one student's folder, one exercise file at a time.

    The zygote forks the sandbox when it is first needed; its init then forks a
    fresh process for every exercise file (``recycle``), after killing what
    the previous one left running and restoring the scratch folder (jail.reset):
    code imported for one exercise may have replaced NumPy functions, rewritten
    files or left processes behind, and a file's grade must not depend on the
    student's other files. ``request`` sends one message and waits for the
    answer with a timeout. A process that hangs is killed with the whole
    sandbox; one that ends is noticed. Either way the next request gets a fresh
    process, so one broken exercise does not spoil the others.
    """

    def __init__(self, folder, *, jail: Jail | None = None, zygote=None, import_timeout=30.0):
        self.folder = Path(folder).resolve()
        self.jail = jail or Jail.for_folder(self.folder)
        self.zygote = zygote or shared()
        self.import_timeout = import_timeout
        self.box = None  # Box: the sandbox
        self._req = self._res = None  # pipes to the current process
        self.generation = 0  # how many worker processes this sandbox has had
        self.exit_code = None
        self.out_of_memory = False  # the last process was killed by the sandbox's memory limit
        self.over = None  # the bound of its scratch folder the sandbox reached, which ended it (Box.over)
        self.report = SandboxReport()  # what the sandbox says of itself, once it has said it
        self.files = set()  # exercise files imported in the current process
        self.first = []  # files the sandbox must take before any other (``want``)
        self._wanted_anew = set()
        self._oom_before = None
        self._next_id = 0
        self._allowance = [MAX_MESSAGE, MAX_TOKENS]  # bytes and values left for the answers to a request
        self._batch = False  # the request is a batch: answered call by call, its last message says "done"
        self._drains = []
        self.arena = None  # Arena: where this process reads back the arguments of a call (arena.py)

    def want(self, name):
        """Make sure the sandbox holds ``name`` (an exercise file) whatever else the folder holds.

        Names given before the sandbox is made are taken first; one that a
        sandbox already made left out (a folder of many files) gets a new
        sandbox that takes it first, once."""
        if name not in self.first:
            self.first.append(name)
        taken = self.report.taken
        if self.box is not None and taken is not None and name not in taken \
                and name not in self._wanted_anew and self.report.notes:
            self._wanted_anew.add(name)
            self.kill()

    @property
    def notes(self) -> list:
        """What the sandbox left out of the student's folder, in words."""
        return list(self.report.notes)

    @property
    def alive(self):
        return self._req is not None

    def ensure(self):
        """Start a process if there is none. Raise SandboxFailed (the grader's failure, never
        the student's: no code of theirs has run yet) if the sandbox cannot be had."""
        if self.alive:
            return
        for _ in range(2):  # a sandbox without namespaces serves one process: then a new one
            if self.box is None:
                try:
                    self.box = Box(*self.zygote.spawn(self.folder, self.jail, self.first))
                except SandboxFailed:
                    raise
                except ZygoteError as exc:
                    raise SandboxFailed(f"the sandbox could not start: {exc}") from None
            try:
                if self._fork():
                    break
            except SandboxFailed:
                self._end_box()
                raise
            self._end_box()
        else:
            raise SandboxFailed("the sandbox could not start: its init did not answer")
        self.generation += 1
        self.exit_code, self.out_of_memory, self.over = None, False, None
        self.files = set()
        self._allowance = [MAX_MESSAGE, MAX_TOKENS]
        try:
            hello = self._receive(self.import_timeout, "starting the worker")
        except (Crashed, Timeout):  # before any of the student's code ran
            code = self.exit_code
            how = "" if code is None else exit_words(code) if code < 0 or code > 128 else f" (exit status {code})"
            raise SandboxFailed(f"the sandbox could not start: its worker ended or hung before it was ready{how}") \
                from None
        if isinstance(hello, dict) and hello.get("hello") is False and isinstance(hello.get("failed"), str):
            self.kill()  # said before any of the student's code ran: the grader's failure
            raise SandboxFailed(hello["failed"][:500])
        if not isinstance(hello, dict) or hello.get("hello") is not True:
            self.kill()
            raise Crashed("the worker sent a malformed greeting")
        self.report = SandboxReport.read(hello.get("sandbox"))

    def _fork(self) -> bool:
        """Ask the sandbox's init for a fresh process on four new pipes, and the box's arena."""
        pipes = [os.pipe() for _ in range(4)]
        (req_r, req_w), (res_r, res_w), (out_r, out_w), (err_r, err_w) = pipes
        if self.arena is None:
            self.arena = Arena.make()
        shared = [self.arena.fd] if self.arena is not None else []
        try:
            started = self.box.fork([req_r, res_w, out_w, err_w, *shared], self.import_timeout)
        finally:
            for fd in (req_r, res_w, out_w, err_w):
                os.close(fd)
        if not started:
            for fd in (req_w, res_r, out_r, err_r):
                os.close(fd)
            return False
        self._req, self._res = req_w, res_r
        self._oom_before = self.box.oom_kills()
        self._drains = [_Drain(os.fdopen(out_r, "rb", buffering=0)), _Drain(os.fdopen(err_r, "rb", buffering=0))]
        for d in self._drains:
            d.start()
        return True

    def request(self, msg, timeout, doing):
        self.ensure()
        self._next_id += 1
        self._allowance = [MAX_MESSAGE, MAX_TOKENS]  # for all the messages that answer it
        self._batch = msg.get("op") == "batch"
        msg = dict(msg, id=self._next_id)
        self._send(msg, doing)
        return self.more(timeout, doing)

    def more(self, timeout, doing):
        """The next message answering the last request (a batch answers call by call): within
        ``timeout``, and all of them together within one answer's size. The request's last one
        is taken only while the scratch folder is within its bounds (a batch's answers go with
        it: one that stops short, or a Crashed, and the caller makes single calls)."""
        answer = self._receive(timeout, doing)
        if not isinstance(answer, dict) or answer.get("id") != self._next_id:
            self.kill()
            raise Crashed(f"the worker's answer while {doing} was out of order "
                          f"(did your code write to the worker's pipes?)")
        over = None if self._batch and "done" not in answer else self.box.scratch()
        if over:  # the call that wrote too much earns nothing: the sandbox has ended
            self.over = over
            self.kill()
            raise Crashed(f"the worker process ended while {doing}{self._ended_words()}")
        return answer

    def recycle(self):
        """Let the current process go: the next request gets a fresh one in the same sandbox."""
        self._close_pipes()

    def kill(self, ended=False):
        """End the process; idempotent. ``ended``: it hung up by itself, so learn why and keep
        the sandbox; otherwise the whole sandbox ends, with everything the process started."""
        if ended and self.alive and self.box is not None:
            self._close_pipes()
            self.exit_code = self.box.exit_code()
            after = self.box.oom_kills()
            self.out_of_memory = None not in (after, self._oom_before) and after > self._oom_before
            self.over = self.box.over
            for d in self._drains:
                d.join(timeout=1)
            if self.exit_code is None or self.over:
                self._end_box()
            return
        self._close_pipes()
        self._end_box()
        self.exit_code = None

    def _close_pipes(self):
        for fd in (self._req, self._res):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._req = self._res = None

    def _end_box(self):
        box, self.box = self.box, None
        if box is not None:
            box.end()
        arena, self.arena = self.arena, None
        if arena is not None:
            arena.close()

    close = kill

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    @property
    def output(self) -> str:
        return "".join(d.kept.decode("utf-8", "replace") for d in self._drains)

    def _send(self, obj, doing):
        try:
            protocol.send(self._req, obj)  # the framing both sides share (inside/worker.py)
        except OSError:
            self.box.has_ended()  # what the init said meanwhile: perhaps that a bound was reached
            self.over = self.box.over
            self.kill()
            raise Crashed(f"the worker had stopped before {doing}{self._ended_words() if self.over else ''}") \
                from None

    def _receive(self, timeout, doing):
        watch = Stopwatch(self.box.pid, timeout)  # wall time, stretched while the machine is busy
        buf = bytearray()
        need, size, had = 4, None, 0
        while len(buf) < need:
            left = watch.left(progress=len(buf) > had)
            had = len(buf)
            ready, _, _ = select.select([self._res, self.box], [], [], left)
            if not ready and left == 0:
                self.kill()
                raise Timeout(f"timed out after {timeout:g} s while {doing} (an endless loop?)")
            if not ready:
                continue
            if self._res in ready:
                chunk = os.read(self._res, min(need - len(buf), 1 << 20))
            elif self.box.has_ended():  # the init says so, though others may hold its pipes open
                chunk = b""
            else:
                continue
            if not chunk:
                self.kill(ended=True)
                raise Crashed(f"the worker process ended while {doing}{self._ended_words()}")
            buf += chunk
            if size is None and len(buf) >= 4:
                (size,) = struct.unpack(">I", bytes(buf[:4]))
                if size > self._allowance[0]:
                    self.kill()
                    raise Crashed(f"the answer while {doing} was {size} bytes, larger than any answer asked for")
                need = 4 + size
        body = bytes(buf[4:])
        tokens = sum(body.count(c) for c in (b",", b"[", b"{"))
        self._allowance = [self._allowance[0] - size, self._allowance[1] - tokens]
        if self._allowance[1] < 0:
            self.kill()
            raise Crashed(f"the answer while {doing} held more than {MAX_TOKENS} values, "
                          f"far more than any answer asked for")
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError, MemoryError):
            # RecursionError: code that replaced the worker's own send() can write "[[[[...]]]]"
            # nested deeper than json can read; uncaught, it ended the whole batch
            self.kill()
            raise Crashed(f"the worker sent an unreadable message while {doing}") from None


    def _ended_words(self) -> str:
        """Why the last process ended, for the student: a bound of the sandbox, or its exit."""
        if self.over:
            return scratch_words(self.over, self.jail.limits)
        return exit_words(self.exit_code, self.out_of_memory and self.jail.limits.memory_mb)


def probe(limits=None) -> SandboxReport:
    """What a sandbox is here: the report of one started on an empty folder, before a class is
    graded. Raises SandboxFailed, naming the cause, where none can be started."""
    import tempfile

    from .zygote import Limits

    with tempfile.TemporaryDirectory(prefix="attn-grade-probe-") as empty:
        with Sandbox(empty, jail=Jail.for_folder(empty, limits=limits or Limits())) as sandbox:
            sandbox.ensure()
            return sandbox.report
