"""Run one student file in a worker child process and call its functions.

``Submission`` owns the child: it starts graders/worker.py with ``python -I``
(no PYTHONPATH, no user site, no script directory on sys.path)
and ``-S`` (no .pth hooks: the grading package itself is not importable there), talks to it
over two private pipes, drains the child's stdout and stderr without parsing
them, and kills the whole process group on a timeout. Student code never runs
in this process; every answer is decoded and validated by graders/wire.py.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import subprocess
import sys
import sysconfig
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from graders import wire
from graders.text import call_text

WORKER = Path(__file__).with_name("worker.py")
# The worker starts with -S (no site processing, so no .pth hooks such as the
# editable install's finder that would make this package importable) and gets
# only the library folders, for numpy and sympy.
SITE_DIRS = tuple(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib")))
MAX_MESSAGE = 40 << 20  # bytes of one answer; a 2-million float64 array fits
OUTPUT_KEEP = 8 << 10  # bytes of the student's own printing we keep for messages


class StudentError(Exception):
    """Something about the student's code that prevents an answer; message in words."""


class Raised(StudentError):
    def __init__(self, func, info, call=None):
        self.func, self.info = func, info
        func = call or f"{func}()"
        self.type_name = str(info.get("type", "Exception"))
        self.mro = [str(n) for n in info.get("mro", [])]
        where = f" ({info['where']})" if info.get("where") else ""
        msg = str(info.get("message", ""))
        super().__init__(f"{func} raised {self.type_name}{': ' + msg if msg else ''}{where}")

    def is_a(self, name):
        return name in self.mro

    @property
    def not_written(self):
        return self.is_a("NotImplementedError")

    def __str__(self):
        if self.not_written:
            return f"{self.func}() raised NotImplementedError: not written yet"
        return super().__str__()


class Missing(StudentError):
    pass


class Timeout(StudentError):
    pass


class Crashed(StudentError):
    pass


@dataclass
class Outcome:
    """How the import went."""

    ready: bool
    message: str = ""
    functions: list = field(default_factory=list)


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


class Submission:
    """One student file, loaded in its own worker process.

    ``call(name, *args)`` returns the decoded answer or raises a StudentError.
    A worker that dies or hangs is replaced by a fresh one (a fresh import) on
    the next call, up to ``max_restarts`` times.
    """

    def __init__(self, path, *, call_timeout=10.0, import_timeout=30.0, max_restarts=3):
        self.path = Path(path).resolve()
        self.call_timeout, self.import_timeout = call_timeout, import_timeout
        self.restarts_left = max_restarts
        self.proc = None
        self.outcome = None
        self._next_id = 0
        self._drains = []

    # ------------------------------------------------------------ lifecycle
    def start(self) -> Outcome:
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        cmd = [sys.executable, "-I", "-S", str(WORKER), str(self.path), str(req_r), str(res_w), *SITE_DIRS]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONHASHSEED": "0",
               "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
               "MPLBACKEND": "Agg", "LANG": "C.UTF-8"}
        for key in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            if key in os.environ:
                env[key] = os.environ[key]
        try:
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(req_r, res_w), cwd=str(self.path.parent), env=env, start_new_session=True)
        finally:
            os.close(req_r)
            os.close(res_w)
        self._req, self._res = req_w, res_r
        self._drains = [_Drain(self.proc.stdout), _Drain(self.proc.stderr)]
        for d in self._drains:
            d.start()
        try:
            msg = self._receive(self.import_timeout, "importing your file")
        except StudentError as exc:
            self.outcome = Outcome(False, str(exc))
            return self.outcome
        if not isinstance(msg, dict) or not isinstance(msg.get("ready"), bool):
            self.kill()
            self.outcome = Outcome(False, "the worker sent a malformed greeting (did your file write to its pipes?)")
        elif msg["ready"]:
            names = [n for n in msg.get("functions", []) if isinstance(n, str)]
            self.outcome = Outcome(True, functions=names)
        else:
            info = msg.get("error") if isinstance(msg.get("error"), dict) else {}
            self.outcome = Outcome(False, _import_message(self.path.name, info))
            self.kill()
        return self.outcome

    def kill(self):
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for fd in (self._req, self._res):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for d in self._drains:
            d.join(timeout=1)

    close = kill

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    @property
    def output(self) -> str:
        return "".join(d.kept.decode("utf-8", "replace") for d in self._drains)

    # ------------------------------------------------------------ calls
    def call(self, func, *args, **kwargs):
        """Call ``func(*args, **kwargs)`` in the worker and return the decoded answer."""
        return self.call_full(func, *args, **kwargs)[0]

    def call_full(self, func, *args, **kwargs):
        """Like ``call`` but also return the indices of arguments the call modified."""
        if self.proc is None:
            if self.restarts_left <= 0:
                raise Crashed(f"{func}() was not run: your code ended or hung the worker too many times")
            self.restarts_left -= 1
            outcome = self.start()
            if not outcome.ready:
                raise Crashed(outcome.message)
        self._next_id += 1
        req = {"id": self._next_id, "op": "call", "func": func,
               "args": [wire.encode(a) for a in args],
               "kwargs": {k: wire.encode(v) for k, v in kwargs.items()}}
        self._send(req)
        msg = self._receive(self.call_timeout, f"running {func}()")
        if not isinstance(msg, dict) or msg.get("id") != self._next_id:
            self.kill()
            raise Crashed(f"{func}(): the worker's answer was out of order (did your code write to its pipes?)")
        if msg.get("missing"):
            raise Missing(f"{func} is not defined in {self.path.name} (or is not a function)")
        if not msg.get("ok"):
            info = msg.get("error") if isinstance(msg.get("error"), dict) else {}
            raise Raised(func, info, call_text(func, *args, **kwargs))
        try:
            value = wire.decode(msg.get("value"))
        except wire.ProtocolError as exc:
            self.kill()
            raise Crashed(f"{func}() returned something that could not be read: {exc}") from None
        changed = [i for i in msg.get("mutated", []) if isinstance(i, int)]
        return value, changed

    def _send(self, obj):
        import json

        data = json.dumps(obj).encode("utf-8")
        try:
            os.write(self._req, struct.pack(">I", len(data)))
            view = memoryview(data)
            while view:
                n = os.write(self._req, view)
                view = view[n:]
        except (BrokenPipeError, OSError):
            self.kill()
            raise Crashed("the worker had stopped before the call could be sent") from None

    def _receive(self, timeout, doing):
        import json

        deadline = time.monotonic() + timeout
        buf = bytearray()
        need = 4
        size = None
        while len(buf) < need:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._res], [], [], max(left, 0))
            if not ready:
                self.kill()
                raise Timeout(f"timed out after {timeout:g} s while {doing} (an endless loop?)")
            chunk = os.read(self._res, min(need - len(buf), 1 << 20))
            if not chunk:
                code = self.proc.wait() if self.proc else None
                self.kill()
                raise Crashed(f"the worker process ended while {doing}{_exit_words(code)}")
            buf += chunk
            if size is None and len(buf) >= 4:
                (size,) = struct.unpack(">I", bytes(buf[:4]))
                if size > MAX_MESSAGE:
                    self.kill()
                    raise Crashed(f"the answer while {doing} was {size} bytes, larger than any answer asked for")
                need = 4 + size
        try:
            return json.loads(bytes(buf[4:]).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.kill()
            raise Crashed(f"the worker sent an unreadable message while {doing}") from None


def _exit_words(code):
    if code is None:
        return ""
    if code < 0:
        try:
            return f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f" (killed by signal {-code})"
    return f" (exit status {code}: did your code call sys.exit or os._exit?)"


def _import_message(filename, info):
    kind = str(info.get("type", "Exception"))
    msg = str(info.get("message", ""))
    where = f" at {info['where']}" if info.get("where") else ""
    if kind == "SyntaxError":
        return f"{filename} has a syntax error{where}: {msg}"
    if kind == "UnicodeDecodeError":
        return f"{filename} is not valid UTF-8 text: {msg}"
    if kind in ("SystemExit", "KeyboardInterrupt"):
        return f"{filename} raised {kind} while being imported{where}; remove top-level exits"
    return f"importing {filename} raised {kind}{': ' + msg if msg else ''}{where}"
