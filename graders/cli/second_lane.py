"""Checking several exercise files on two lanes: some in a forked copy of this command.

A check of every exercise waits mostly for the learner's code, one file after
another (saturation's simulations alone take about 0.6 s), while the other core
idles. With the resident zygote (graders/sandbox/resident.py) a second sandbox
costs a fork, so the command forks before it has started anything (no thread,
no sandbox, no connection yet): the copy grades its share of the files with a
Session of its own and sends each result back, pickled, on a pipe; this process
grades the rest and prints every result in teaching order as soon as it and
those before it are in. Each file is graded as it would be alone: a fresh
process per file in a sandbox of the folder's files either way.

The share is chosen from how long each file took at its quickest check since
it last changed (State): longest first, each onto the lane with less to do. A
copy that fails sends nothing more, and this process grades what it did not
send.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys

UNKNOWN = 1.0  # seconds assumed for a file never checked before


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def split(targets, seconds) -> tuple[list, list]:
    """(this process's targets, the copy's), each in the given order: longest first onto the
    lane with less to do (the copy's first), ``seconds(target)`` being how long it took (State:
    its quickest check since it last changed), or None."""
    cost = {t: seconds(t) or UNKNOWN for t in targets}
    lanes, load = ([], []), [0.0, 0.0]
    for t in sorted(targets, key=lambda t: -cost[t]):
        i = 0 if load[0] <= load[1] else 1
        lanes[i].append(t)
        load[i] += cost[t]
    order = {t: n for n, t in enumerate(targets)}
    # the copy takes the longest file: this process, which prints, gets through more of the others meanwhile
    return sorted(lanes[1], key=order.get), sorted(lanes[0], key=order.get)


class Lane:
    """The forked copy grading ``targets`` with ``grade`` (a function of one target, called in the
    copy); ``ready()`` and ``rest()`` collect what it has sent as {target: result}."""

    def __init__(self, targets, grade):
        self.targets, self.got = list(targets), {}
        r, w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the copy: grade, send, end without running this process's clean-up
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is this process's: it ends the copy
            os.close(r)
            code = 0
            try:
                _die_with(parent)
                with os.fdopen(w, "wb") as out:  # whole writes, whatever interrupts them
                    for n, target in enumerate(self.targets):
                        data = pickle.dumps((n, grade(target)))
                        out.write(struct.pack("<Q", len(data)) + data)
                        out.flush()
            except BaseException:  # noqa: BLE001 - a reader gone, an error: this process grades the rest
                code = 1
            finally:
                os._exit(code)
        os.close(w)
        self.fd, self.buffer = r, b""

    def ready(self) -> dict:
        """The results sent so far, without waiting."""
        while self.fd is not None and select.select([self.fd], [], [], 0)[0]:
            self._read()
        return dict(self.got)

    def rest(self) -> dict:
        """Every result the copy sends, waiting for it to end."""
        while self.fd is not None:
            self._read()
        self._reap()
        return dict(self.got)

    def missing(self) -> list:
        """The targets the copy did not send (it ended early): this process grades them."""
        return [t for t in self.targets if t not in self.got]

    def _read(self):
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            os.close(self.fd)
            self.fd = None
            return
        self.buffer += chunk
        while len(self.buffer) >= 8:
            size = struct.unpack("<Q", self.buffer[:8])[0]
            if len(self.buffer) < 8 + size:
                break
            n, result = pickle.loads(self.buffer[8:8 + size])  # from our own fork: trusted
            self.got[self.targets[n]] = result
            self.buffer = self.buffer[8 + size:]

    def _reap(self):
        if self.pid is not None:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = None  # reaped: the number may be another process's by now

    def close(self):
        """End the copy (Ctrl-C, an error here) and reap it."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._reap()


def _die_with(parent: int) -> None:
    """Be killed when the command ends (kill -9 included), not go on grading for nobody."""
    from ..grading.sandboxes import die_with_parent

    die_with_parent(parent)
