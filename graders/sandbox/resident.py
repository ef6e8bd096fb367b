"""The resident zygote: one that outlives a command, so a learner's next check finds it warm.

Importing NumPy and SymPy in the zygote is most of what ``attn-grade check``
waits for (issue 11). ``Resident`` is a Zygote (zygote.py) that, instead of
starting its own, connects to one listening on a Unix socket in a folder of
this user's alone, and starts it there (detached, in a session of its own) when
there is none. It serves every command of that user, ends the sandboxes of one
that hangs up, and ends after ``IDLE`` seconds with no command connected
(factory.py, ``_serve``) or at ``attn-grade stop``.

The socket's name is a digest of what the zygote is made of: the sandbox's
files, the interpreter, the library folders and their NumPy and SymPy, and
the settings it is started with. Anything else, and a new one starts; the old
one is never asked again and ends when idle.

Only the learner's commands (check, watch) use it: the batch grader and
nbgrader start a zygote of their own per grading process. The zygote only ever
held its own user's requests, so the sandboxes forked from it hold nothing of
anybody else's.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import time
from pathlib import Path

from . import zygote as z

IDLE = 900.0  # seconds a resident zygote waits with no command connected before it ends
MADE_OF = ("factory", "files", "cgroups", "jail", "confine", "worker", "inside")


def folder() -> Path | None:
    """The folder for this user's sockets (made if need be), or None where none is safe:
    ATTN_GRADE_RUNTIME, else $XDG_RUNTIME_DIR/attn-grade, else /tmp/attn-grade-UID;
    it must be a real folder, ours, that nobody else may enter."""
    if os.environ.get("ATTN_GRADE_RUNTIME"):
        path = Path(os.environ["ATTN_GRADE_RUNTIME"])
    elif os.environ.get("XDG_RUNTIME_DIR"):
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / "attn-grade"
    else:
        path = Path("/tmp") / f"attn-grade-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return path


def key(sympy=True) -> str:
    """A digest of everything the zygote is made of and started with."""
    from importlib import metadata

    h = hashlib.sha256()
    for name in MADE_OF:
        h.update(z.FACTORY.with_name(name + ".py").read_bytes())
    env, _ = z.environment(sympy)
    versions = []
    for dist in ("numpy", "sympy"):
        try:
            versions.append(metadata.version(dist))
        except metadata.PackageNotFoundError:
            versions.append(None)
    h.update(repr((z.BOOT, z.python(), z.SITE_DIRS, sorted(env.items()), versions, IDLE)).encode())
    return h.hexdigest()[:20]


class Resident(z.Zygote):
    """A Zygote that connects to this user's resident zygote, starting it if need be."""

    def __init__(self, where: Path):
        super().__init__()
        self.where = where
        self.path = None

    def start(self, sympy=True):
        """Connect now (it is otherwise done by the first request). The resident zygote always
        preloads SymPy too: it is paid for once."""
        if self.sock is not None and self.pid_owner == os.getpid():
            return
        self.path = self.path or self.where / f"z-{key()}.sock"
        self.sock = self._connect() or self._launch()
        self.pid_owner = os.getpid()

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
            env, cmd = z.environment(True)
            env["ATTN_ZYGOTE_IDLE"] = str(IDLE)
            os.set_inheritable(listener.fileno(), True)
            null = os.open(os.devnull, os.O_RDWR)
            try:
                # Detached: a session of its own, nothing of this terminal, not our child to wait for.
                os.posix_spawn(cmd[0], cmd + [str(listener.fileno()), *z.SITE_DIRS], env, setsid=True,
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

    def _ask(self, request, fds=()):
        """Ask; once more, of a new zygote, if this one has gone (stopped, killed) since we connected."""
        try:
            return super()._ask(request, fds)
        except z.ZygoteError:
            return super()._ask(request, fds)

    def close(self, seconds=0.0):
        """Hang up: the resident zygote ends this command's sandboxes and stays for the next."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def learner() -> z.Zygote:
    """The zygote for a learner's command: the resident one, unless ATTN_GRADE_RESIDENT=0 or
    no safe folder for its socket exists (then one of this process's own)."""
    where = None if os.environ.get("ATTN_GRADE_RESIDENT") == "0" else folder()
    return Resident(where) if where is not None else z.shared()


def stop(where: Path | None = None, seconds=6.0) -> int:
    """Ask every resident zygote of this user to end, and wait (up to ``seconds`` each) until it
    has removed its sandboxes and cgroups; how many were asked."""
    where = where or folder()
    asked = 0
    for path in sorted(where.glob("z-*.sock")) if where is not None else ():
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
