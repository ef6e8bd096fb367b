"""The resident zygote: one that outlives a command, so a learner's next check finds it warm.

Importing NumPy and SymPy in the zygote is most of what ``attn-grade check``
waits for (issue 11). ``Resident`` is a Zygote (zygote.py) that, instead of
starting its own, connects to one listening on a Unix socket in a folder of
this user's alone, and starts it there (detached, in a session of its own) when
there is none. It serves every command of that user, ends the sandboxes of one
that hangs up, and ends after ``IDLE`` seconds with no command connected
(inside/factory.py, ``_serve``) or at ``attn-grade stop``.

The socket's name is a digest of what the zygote is made of: the sandbox's
files, the interpreter, the library folders and their NumPy and SymPy, and
the settings it is started with. Anything else, and a new one starts; the old
one is never asked again and ends when idle.

Only the learner's commands (check, watch, and prepare, which starts it for
the first check) use it: the batch grader starts a zygote of its own for the
batch (its job processes share it: graders/batch/run.py), and nbgrader's
autograder one per grading process. The zygote only ever
held its own user's requests, so the sandboxes forked from it hold nothing of
anybody else's.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import socket
import stat
import time
from pathlib import Path

from . import zygote as z
from .inside.factory import SIBLINGS

IDLE = 900.0  # seconds a resident zygote waits with no command connected before it ends
MADE_OF = ("factory", *SIBLINGS)  # the files the zygote is made of (a change starts a new one)


def folder(path: Path) -> Path | None:
    """``path``, the folder for this user's sockets (a Settings' ``runtime``: ATTN_GRADE_RUNTIME,
    else $XDG_RUNTIME_DIR/attn-grade, else /tmp/attn-grade-UID), made if need be; or None where
    it is not safe: it must be a real folder, ours, that nobody else may enter."""
    path = Path(path)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    if len(os.fsencode(path)) + len("/.z-0123456789abcdef0123.sock.4194304") > 107:
        return None  # no socket's path may be longer (sun_path)
    return path


@functools.lru_cache(maxsize=None)
def key() -> str:
    """A digest of everything the zygote is made of and started with (once per process: a
    lane's copy inherits it)."""
    h = hashlib.sha256()
    for name in MADE_OF:
        h.update(z.FACTORY.with_name(name + ".py").read_bytes())
    env, _ = z.environment(True)  # a resident zygote always preloads SymPy
    versions = [z.installed(dist, z.SITE_DIRS) for dist in ("numpy", "sympy")]
    h.update(repr((z.BOOT, z.python(), z.SITE_DIRS, sorted(env.items()), versions, IDLE)).encode())
    return h.hexdigest()[:20]


class Resident(z.Zygote):
    """A Zygote that connects to this user's resident zygote, starting it if need be; or, where
    that cannot be had (it refuses, no socket can be made), one of this process's own."""

    def __init__(self, where: Path):
        super().__init__()
        self.where = where
        self.path = None
        self.own = False  # this process's own zygote (z.Zygote's way) from now on
        self.launched = None  # the pid of a zygote this process started, to reap when it ends

    def start(self, sympy=True):
        """Connect now (it is otherwise done by the first request). The resident zygote always
        has SymPy loaded too (paid for once): before it serves, if this command needs it, else as
        soon as it has served this one."""
        self.sympy = sympy
        if self.own:
            return super().start(sympy)
        self._reap()
        if self.sock is not None and self.pid_owner == os.getpid():
            return
        self.path = self.path or self.where / f"z-{key()}.sock"
        try:
            with _lock(self.path):  # one command (or lane) launches it; the others connect to it
                self.sock = self._connect() or self._launch()
        except (OSError, z.ZygoteError):
            self.own = True  # a folder that went away, a socket that cannot be made: as before
            return super().start(sympy)
        self.pid_owner = os.getpid()

    def spawn(self, folder, jail, first=()):
        try:
            return super().spawn(folder, jail, first)
        except z.Refused:
            if self.own:
                raise
            self.close()
            self.own = True  # no namespaces for its sandboxes here: a zygote of our own, as before
            return super().spawn(folder, jail, first)

    def _connect(self):
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            conn.connect(str(self.path))
        except OSError:
            conn.close()
            return None
        return conn

    def _launch(self):
        """Start a resident zygote on a socket bound and listening before it starts (so that
        connecting waits for it rather than fails), then put the socket in its place."""
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            temp.unlink(missing_ok=True)
            listener.bind(str(temp))
            listener.listen(64)
            env, cmd = z.environment(self.sympy)  # without: it loads SymPy once this command is served
            env["ATTN_ZYGOTE_IDLE"] = str(IDLE)
            os.set_inheritable(listener.fileno(), True)
            null = os.open(os.devnull, os.O_RDWR)
            try:
                # Detached: a session of its own, nothing of this terminal (it closes the rest itself).
                self.launched = os.posix_spawn(cmd[0], cmd + [str(listener.fileno()), *z.SITE_DIRS], env,
                                               setsid=True,
                                               file_actions=[(os.POSIX_SPAWN_DUP2, null, fd) for fd in (0, 1, 2)])
            finally:
                os.close(null)
            os.replace(temp, self.path)
        except OSError as exc:
            raise z.ZygoteError(f"the resident worker factory could not be started: {exc}") from None
        finally:
            listener.close()
            temp.unlink(missing_ok=True)
        conn = self._connect()
        if conn is None:
            raise z.ZygoteError("the resident worker factory did not answer")
        return conn

    def _reap(self):
        """A zygote this process started ends as our child: reap it, once it has."""
        if self.launched is not None:
            try:
                if os.waitpid(self.launched, os.WNOHANG)[0]:
                    self.launched = None
            except ChildProcessError:
                self.launched = None

    def _ask(self, request, fds=()):
        """Ask; once more, of a new zygote, if this one has gone (stopped, killed) since we connected."""
        try:
            return super()._ask(request, fds)
        except z.Refused:
            raise
        except z.ZygoteError:
            if self.own:
                raise
            return super()._ask(request, fds)

    def close(self, seconds=6.0):
        """Hang up: the resident zygote ends this command's sandboxes and stays for the next
        (a zygote of our own ends, as z.Zygote's does)."""
        if self.own:
            return super().close(seconds)
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self._reap()


@contextlib.contextmanager
def _lock(path: Path):
    """Held while a zygote's socket is connected to or launched (or stopped): one at a time."""
    fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def learner(runtime: Path | None) -> z.Zygote:
    """The zygote for a learner's command: the resident one, whose socket is in ``runtime``
    (None: no resident zygote, as ATTN_GRADE_RESIDENT=0 asks), unless that folder is not safe
    (then one of this process's own)."""
    where = folder(runtime) if runtime is not None else None
    return Resident(where) if where is not None else z.shared()


def stop(where: Path | None, seconds=6.0) -> int:
    """Ask every resident zygote of this user whose socket is in ``where`` to end, and wait (up to
    ``seconds`` each) until it has removed its sandboxes and cgroups; how many were asked."""
    asked = 0
    for path in sorted(where.glob("z-*.sock")) if where is not None else ():
        with _lock(path):  # a command launching one meanwhile waits, then starts it anew
            pid = ask(path, "stop")
            path.unlink(missing_ok=True)
        if pid is None:
            continue
        asked += 1
        deadline = time.monotonic() + seconds
        while _state(pid) != "Z" and time.monotonic() < deadline:
            time.sleep(0.02)
    return asked


def ask(path: Path, op: str, seconds=60.0) -> int | None:
    """Send ``op`` ("who" or "stop") to the zygote at ``path``: its pid, or None if none answers."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    conn.settimeout(seconds)  # one that is starting answers once it has loaded NumPy and SymPy
    try:
        conn.connect(str(path))
        conn.send(json.dumps({"op": op}).encode())
        pid = json.loads(conn.recv(1 << 10).decode())["zygote"]
        if op == "stop":
            conn.recv(1)  # it hangs up when it stops serving; then it cleans up and ends
        return pid if isinstance(pid, int) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    finally:
        conn.close()


def _state(pid) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return "Z"
