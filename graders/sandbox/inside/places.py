"""What the zygote makes for each sandbox, and removes once that sandbox has ended: ``Places``.

Loaded by factory.py by path; standard library only. A sandbox gets a cgroup
where the system has them (cgroups.py) and, where it has no namespaces, a
scratch folder and (as root) a user of its own (flat.py). The zygote is a
subreaper, so what a sandbox's processes leave running when the sandbox ends
becomes its child: any child that is no sandbox is killed at once.
"""

import os
import signal
import time

TIDY = 0.1  # seconds between two tidyings while the zygote waits: what a sandbox left running lives no longer


class Places:
    """What the zygote makes for each sandbox and removes once it has ended: its cgroup, and
    without namespaces its scratch folder and user (flat.py). It also kills any child of ours
    that is no sandbox: as a subreaper we inherit what a sandbox's processes left behind."""

    def __init__(self, tree, why, run):
        self.tree, self.why, self.run = tree, why, run
        self.boxes = {}  # pid -> (the connection it serves, its number, its cgroup folders)

    def make(self, n, cfg):
        """(cgroup as (folders or None, words), place or None) of sandbox ``n``."""
        cgroup = make_cgroup(self.tree, self.why, n, cfg)
        try:
            place = self.run.place(n) if self.run is not None else None
        except BaseException:
            if cgroup[0]:
                self.tree.release(cgroup[0])
            raise
        return cgroup, place

    def add(self, pid, conn, n, cgroup):
        self.boxes[pid] = (conn, n, cgroup[0])

    def tidy(self):
        """Kill strays, reap the sandboxes that have ended and remove what was theirs (strays
        first: none of them may still be writing to a folder that is being removed)."""
        for pid in children():
            if pid not in self.boxes:
                kill(pid)
        for pid in reap():
            conn, n, dirs = self.boxes.pop(pid, (None, None, None))
            if self.tree is not None and dirs:
                self.tree.release(dirs)
            if self.run is not None and n is not None:
                self.run.release(n)
        if self.run is not None:
            self.run.retry()

    def of(self, conn):
        return [pid for pid, (owner, _, _) in self.boxes.items() if owner is conn]

    def orphan(self, pid):
        self.boxes[pid] = (None, *self.boxes[pid][1:])

    def close(self, seconds=5.0):
        """End every sandbox and remove all that was made for them."""
        for pid in list(self.boxes):
            kill(pid)
        deadline = time.monotonic() + seconds
        while self.boxes and time.monotonic() < deadline:
            self.tidy()
            if self.boxes:
                time.sleep(0.01)
        if self.tree is not None:
            self.tree.close(reap=reap)
        if self.run is not None:
            self.run.close()


def kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)  # the sandbox's outer process: its PID namespace dies with it
    except OSError:
        pass


def make_cgroup(tree, why, n, cfg):
    """(the cgroup folders of sandbox ``n``, what they bound), or (None, why there are none)."""
    if tree is None:
        return None, why
    try:
        return tree.sandbox(n, cfg["memory_mb"], cfg["processes"]), tree.describe(cfg["memory_mb"], cfg["processes"])
    except OSError as exc:
        return None, f"the sandbox's cgroup could not be made ({exc.strerror or exc})"


def children():
    """The pids of our children (as a subreaper, orphans of a sandbox's processes among them)."""
    found = []
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/children") as f:
                found += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return found


def reap():
    """The children that have ended, reaped without waiting."""
    ended = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended.append(pid)
