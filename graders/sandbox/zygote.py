"""The parent's side of the zygote: one pre-warmed process that forks workers.

Starting Python and importing NumPy and SymPy costs far more than grading a
file, so each grading process keeps one zygote (inside/factory.py in zygote
mode, started with ``python -I -S``), or takes a connection to one its parent
started (``hand_out``, ``adopt``: a batch's job processes share the batch's).
It never loads grader or solution code.
For every student it forks a sandbox (inside/jail.py) whose init then forks
a fresh worker per exercise file. The sandbox's control socket is handed over
on a Unix socket (SCM_RIGHTS); the zygote answers with the sandbox's pid.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from .inside import cgroups

FACTORY = Path(__file__).parent / "inside" / "factory.py"
# factory.py compiled under a neutral name, so that no frame or file name in the sandbox is a host path
BOOT = ("import sys; exec(compile(open(sys.argv[1], 'rb').read(), '/attn-grade/factory.py', 'exec', "
        "dont_inherit=True), {'__name__': '__main__'})")
# The interpreter itself, not a virtual environment's (whose path and sys.prefix would name the project).
PYTHON = getattr(sys, "_base_executable", None) or sys.executable
# The zygote starts with -S (no site processing, so no .pth hooks such as the
# editable install's finder that would make this package importable) and gets
# only the library folders, for numpy and sympy.
SITE_DIRS = tuple(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib")))


@dataclass(frozen=True)
class Limits:
    """Limits of a sandbox and of each of its processes. Wall time is the caller's call timeout."""

    cpu: int = 60  # seconds of CPU for a worker's whole life
    memory_mb: int = 1024  # address space of each process, and (with a cgroup) the whole sandbox's memory
    file_mb: int = 16  # largest file it may write
    processes: int = 16  # in the whole sandbox, threads included (with a cgroup; else per user, as root)
    # What its scratch folder may hold, its files and folders: a tmpfs of this size with namespaces;
    # without, measured by the sandbox's init (inside/scratch.py). Honest code writes a few files; the
    # hostile forge_results, ~1,000 (tests/test_hostile.py): a bound it reaches would hide its cause.
    scratch_mb: int = 64
    scratch_entries: int = 2000


@dataclass(frozen=True)
class Jail:
    """Where a worker's files come from: ``scratch`` is the submissions folder.

    In the sandbox it becomes a private writable tmpfs holding only the
    student's own files (their folder below it); nothing else of the host's
    folders is there but the system libraries and Python.
    """

    scratch: str
    limits: Limits = Limits()

    @classmethod
    def for_folder(cls, scratch, *, limits=Limits()):
        return cls(os.path.realpath(scratch), limits)

    def config(self) -> dict:
        return {"scratch": self.scratch, **asdict(self.limits)}


def installed(dist: str, folders=None) -> str | None:
    """The installed version of the distribution ``dist`` (numpy), or None: the name of its
    install record (numpy-2.4.6.dist-info) in the first of ``folders`` (default: sys.path, whose
    listings are read once) that holds one, as importlib.metadata would find it. That costs well
    under a millisecond; importing importlib.metadata and its first scan cost a command 30-40 ms."""
    want = _normal(dist)
    for folder in sys.path if folders is None else folders:
        for name, version in (_records if folders is None else _records.__wrapped__)(folder):
            if name == want:
                return version
    return None


@functools.lru_cache(maxsize=None)
def _records(folder: str) -> tuple:
    """(normalised name, version) of each install record in ``folder``, in name order."""
    try:
        entries = sorted(os.listdir(folder or "."))
    except OSError:
        return ()
    found = (e[:-len(".dist-info")].partition("-") for e in entries if e.endswith(".dist-info"))
    return tuple((_normal(name), version) for name, _, version in found if version)


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def python() -> str:
    return PYTHON if os.path.exists(PYTHON) else sys.executable


def environment(sympy=True):
    """(the zygote's whole environment, its command line up to the socket's descriptor)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONHASHSEED": "0",
           "ATTN_ZYGOTE_SYMPY": "1" if sympy else "0",
           "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "MPLBACKEND": "Agg", "LANG": "C.UTF-8", "HOME": "/nonexistent"}
    for key in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env, [python(), "-I", "-S", "-c", BOOT, str(FACTORY), "zygote"]


class ZygoteError(RuntimeError):
    """The zygote could not be started or stopped answering."""


class SandboxFailed(ZygoteError):
    """A sandbox could not be built or its worker confined: the grader's failure, never the
    student's. Its message names the cause ("the sandbox could not start: ...")."""


class Refused(ZygoteError):
    """The zygote would not fork a sandbox (a resident one without namespaces): it says why."""


class Zygote:
    def __init__(self):
        self.proc = None
        self.sock = None
        self.pid_owner = os.getpid()
        self.lock = threading.Lock()
        self.adopted = False  # a connection handed out by another process's zygote (hand_out)

    def _start(self, sympy=True):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env, cmd = environment(sympy)
        self.proc = subprocess.Popen(cmd + [str(theirs.fileno()), *SITE_DIRS], pass_fds=(theirs.fileno(),),
                                     env=env, cwd="/", stdin=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        self.sock = ours
        self.pid_owner = os.getpid()

    def start(self, sympy=True):
        """Start the zygote now (it is otherwise started by the first request). ``sympy=False``:
        it preloads NumPy only, for files that do not use SymPy (one that does imports it itself)."""
        if self.adopted and self.sock is not None and self.pid_owner == os.getpid():
            return
        if self.proc is None or self.proc.poll() is not None or self.pid_owner != os.getpid():
            self.adopted = False
            self._start(sympy)

    def load_sympy(self):
        """Have a zygote started with ``sympy=False`` import SymPy now, for the files that will need it."""
        with self.lock:
            self._ask({"op": "sympy"})

    def hand_out(self, n: int) -> list:
        """``n`` more connections to this zygote, for processes about to be forked from this one (a
        batch's jobs): each takes one (``adopt``) instead of starting a zygote of its own, which would
        start Python and import NumPy and SymPy again. Each connection is served like ours, and its
        sandboxes end when it hangs up; the zygote ends once every connection has."""
        ends = []
        with self.lock:
            for _ in range(n):
                ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                try:
                    reply = self._ask({"op": "adopt"}, (theirs.fileno(),))
                finally:
                    theirs.close()
                if not isinstance(reply, dict) or "adopted" not in reply:
                    ours.close()
                    break
                ends.append(ours)
        return ends

    def _ask(self, request, fds=()):
        self.start()
        try:
            socket.send_fds(self.sock, [json.dumps(request).encode()], list(fds))
            reply = self.sock.recv(1 << 16)
        except OSError as exc:
            self.close()
            raise ZygoteError(f"the worker factory stopped answering: {exc}") from None
        if not reply:
            self.close()
            raise ZygoteError("the worker factory ended unexpectedly")
        return json.loads(reply.decode())

    def spawn(self, folder, jail: Jail, first=()):
        """Fork a sandbox for a student's ``folder``; return (pid, control socket, cgroup folder).

        ``pid`` is the sandbox's outer process (killing it ends the sandbox); the
        socket talks to the sandbox's init, which forks a worker per exercise file
        (inside/init.py, ``child``); ``first`` names the files the sandbox takes before
        any other (inside/files.py); the cgroup folder (or None) is where its memory is counted.
        The zygote hears only the limits: the folder goes to the sandbox alone, on its socket."""
        with self.lock:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                reply = self._ask({"op": "spawn", "sandbox": asdict(jail.limits)}, (theirs.fileno(),))
            except BaseException:
                ours.close()
                raise
            finally:
                theirs.close()
            if not isinstance(reply, dict) or not isinstance(reply.get("pid"), int):
                ours.close()
                raise Refused(str(reply.get("refused") if isinstance(reply, dict) else reply)[:300])
            try:
                ours.send(json.dumps({"folder": str(folder), "first": list(first), "scratch": jail.scratch}).encode())
            except OSError:
                pass  # the sandbox ended already: its first fork says so
            return reply["pid"], ours, reply.get("cgroup")

    def close(self, seconds=6.0):
        """Hang up, so the zygote removes its sandboxes' cgroups and ends; kill it after ``seconds``
        (longer than the 5 s its clean-up may take). A zygote killed during its clean-up, or
        before it (by us, or by anyone), leaves its cgroups behind: they are removed here."""
        proc, self.proc = self.proc, None
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if proc is not None and proc.poll() is None:
            try:
                proc.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
        if proc is not None:  # killed during its clean-up (or before it), it left its cgroups
            cgroups.remove_ended(proc.pid)


_shared = None


def adopt(sock) -> None:
    """Make ``sock``, one of the connections another process's zygote handed out (``hand_out``) before
    forking us, this process's zygote (None: none was handed to us); and close what we inherited of
    that process's own."""
    global _shared
    if _shared is not None and _shared.pid_owner != os.getpid() and _shared.sock is not None:
        _shared.sock.close()  # the parent's connection: its zygote ends when the parent hangs up
    _shared = None  # without one: shared() makes a zygote of this process's own
    if sock is not None:
        _shared = Zygote()
        _shared.sock, _shared.adopted = sock, True


def shared() -> Zygote:
    """This process's zygote (a new one after a fork)."""
    global _shared
    if _shared is None or _shared.pid_owner != os.getpid():
        _shared = Zygote()
    return _shared
