"""The parent's end of one student's sandbox: ``Box``.

The zygote forks the sandbox and hands over a control socket to its init
(inside/init.py, ``init``). On it the parent asks for a fresh process per
exercise file (``fork``), and the init tells, unasked, when that process has
ended and how ({"ended": exit code, "pid": n}): a process killed by the memory
limit while children it left hold its pipes open is noticed at once, not at
the call's timeout. ``scratch`` asks the init to measure the scratch folder after
an answer; an init that finds one of its bounds reached (then, or at one of its
own looks) ends the sandbox and says which ({"over": ...}, inside/scratch.py).
``end`` kills the sandbox's outer process, which ends the sandbox and everything in it.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket

from .inside import cgroups
from .inside.scratch import CAUSES
from .zygote import SandboxFailed


class Box:
    def __init__(self, pid: int, sock: socket.socket, cgroup: str | None):
        self.pid, self.sock, self.cgroup = pid, sock, cgroup
        self.worker = None  # pid of the current process
        self.done, self.code = False, None  # whether the init told it ended, and its exit code
        self.failed = None  # why the sandbox could not be built, as it said before it ended
        self.over = None  # the bound of its scratch folder it reached (CAUSES), as the init said when it ended it

    def fileno(self):
        return self.sock.fileno()

    def fork(self, fds, timeout) -> bool:
        """Ask for a fresh process on the pipe ends ``fds``; True if the init started one."""
        try:
            socket.send_fds(self.sock, [b'{"op": "fork"}'], list(fds))
            reply = self._next(timeout, "ok")
        except OSError:
            self.has_ended()  # what it said before it ended (why it failed) is still there to read
            if self.failed:
                raise SandboxFailed(self.failed) from None
            return False
        if not isinstance(reply, dict) or reply.get("ok") is not True or not isinstance(reply.get("pid"), int):
            return False
        self.worker, self.done, self.code = reply["pid"], False, None
        return True

    def has_ended(self) -> bool:
        """Whether the init has said the current process ended (reading what it sent, not waiting)."""
        while not self.done and select.select([self.sock], [], [], 0)[0]:
            try:
                raw = self.sock.recv(1 << 12)
            except OSError:
                raw = b""
            if not raw:  # the init is gone, and with it the whole sandbox
                self.done, self.code = True, None
                break
            self._take(raw)
        return self.done

    def exit_code(self, timeout=5.0):
        """The current process's exit code (negative: killed by that signal), asking the init
        (which kills it after 2 s if it has only hung up); None if it cannot tell."""
        if not self.has_ended():  # what the init said before it ended is read first
            try:
                self.sock.send(b'{"op": "status"}')
                self._next(timeout, "ended")
            except OSError:  # it has ended meanwhile: what it said last may still be there to read
                if not self.has_ended():
                    return None
        return self.code

    def scratch(self, timeout=10.0):
        """None while the scratch folder is within its bounds, as the init measures it now; else
        the bound it reached (CAUSES), for which the init has ended the sandbox."""
        try:
            self.sock.send(b'{"op": "scratch"}')
            self._next(timeout, "scratch")
        except OSError:  # the init has ended (perhaps for that), or does not answer
            self.has_ended()
        return self.over

    def oom_kills(self):
        return cgroups.oom_kills([self.cgroup]) if self.cgroup else None

    def end(self):
        self.sock.close()
        try:
            os.kill(self.pid, signal.SIGKILL)  # the sandbox's outer process: its PID namespace dies with it
        except (ProcessLookupError, PermissionError):
            pass
        # Not waited for: the zygote reaps it later, and the next student does not wait
        # for the namespace to be torn down.

    def _next(self, timeout, key):
        """The next message holding ``key``; "ended" messages on the way are taken note of."""
        self.sock.settimeout(timeout)
        try:
            while True:
                raw = self.sock.recv(1 << 12)
                if not raw:
                    raise OSError("the sandbox's init hung up")
                msg = self._take(raw)
                if isinstance(msg, dict) and key in msg:
                    return msg
        finally:
            self.sock.settimeout(None)

    def _take(self, raw):
        try:
            msg = json.loads(raw.decode())
        except ValueError:
            return None
        if isinstance(msg, dict) and isinstance(msg.get("failed"), str):  # before any student code ran
            self.failed = msg["failed"][:500]
        if isinstance(msg, dict) and msg.get("over") in CAUSES:
            self.over = msg["over"]
        if isinstance(msg, dict) and "ended" in msg and msg.get("pid") == self.worker:
            self.done, self.code = True, msg["ended"] if isinstance(msg["ended"], int) else None
        return msg
