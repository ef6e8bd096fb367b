"""A control group per sandbox: its memory and its number of processes, bounded as a whole.

Loaded by factory.py by path; standard library only. The address-space limit
(RLIMIT_AS) is per process and does not count shared memory, so a student
could hold memory in a memfd, in many processes, or in files of a tmpfs; a
cgroup counts all of it (page cache, tmpfs and shared memory included) for
every process of the sandbox together, and bounds how many there are.

cgroup v2 (memory.max, memory.swap.max, pids.max) where the zygote's cgroup
hands the memory and pids controllers to its children; else cgroup v1 (this
project's machines: memory.limit_in_bytes, memory.memsw.limit_in_bytes,
pids.max in the memory and pids hierarchies). The zygote makes one folder of
its own beside itself (``Tree``), named after its pid and start time, moves
itself into a cgroup of that folder (``KEEPER``, without limits) and makes one
cgroup in it per sandbox; it empties and removes each when the sandbox has
ended, and all of them when it ends. A zygote killed before it could do so
leaves its tree: the process that started it removes it once it has reaped it
(``remove_ended``), and any zygote that starts removes the folders that
zygotes which died left behind: those whose keeper holds no process.
It never kills anything there, and never touches the tree of a zygote that
lives, even the empty cgroup of a sandbox about to join it.
"""

import errno
import os
import signal
import time

PREFIX = "attn-grade-"
KEEPER = "zygote"  # the zygote's own cgroup in its tree: while it holds a process, the tree is in use


def _read(path):
    with open(path) as f:
        return f.read()


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _mounts():
    """{controller or "cgroup2": mount point} from /proc/self/mountinfo."""
    found = {}
    for line in _read("/proc/self/mountinfo").splitlines():
        left, _, right = line.partition(" - ")
        fstype, _, options = (right.split() + ["", "", ""])[:3]
        point = left.split()[4]
        if fstype == "cgroup2":
            found.setdefault("cgroup2", point)
        elif fstype == "cgroup":
            for opt in options.split(","):
                found.setdefault(opt, point)
    return found


def _own_paths():
    """{controller (or "" for v2): this process's cgroup path} from /proc/self/cgroup."""
    found = {}
    for line in _read("/proc/self/cgroup").splitlines():
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(",") if controllers else [""]:
            found[c] = path
    return found


def _start_time(pid):
    stat = _read(f"/proc/{pid}/stat")
    return stat[stat.rfind(")") + 2:].split()[19]


class Tree:
    """The zygote's folder of sandbox cgroups (v1: one folder per controller)."""

    def __init__(self, version, bases, homes=()):
        self.version, self.bases, self.homes, self.pending = version, bases, list(homes), []

    @classmethod
    def open(cls):
        """The zygote's tree, or (None, why not) where no cgroup can bound a sandbox."""
        name = f"{PREFIX}{os.getpid()}-{_start_time(os.getpid())}"
        version, parents = _parents()
        if not version:
            return None, "the system has no memory and pids cgroup controllers"
        try:
            if version == 2:
                _delegate(parents[0])
            for parent in parents:
                _sweep(parent)
            bases = [os.path.join(p, name) for p in parents]
            for attempt in range(3):
                try:
                    return cls._move_in(version, bases, parents), ""
                except OSError as exc:  # swept by a zygote starting elsewhere before we moved in: the
                    # folder is gone (ENOENT), or still being removed, and cgroup v1 refuses a folder
                    # made in a dying cgroup with ENODEV (seen when two Dask workers started at once)
                    if exc.errno not in (errno.ENOENT, errno.ENODEV) or attempt == 2:
                        raise
        except OSError as exc:
            return None, f"no cgroup could be made ({exc.strerror or exc})"

    @classmethod
    def _move_in(cls, version, bases, homes):
        """Make the tree and move this process into its keeper, which marks it as in use."""
        for base in bases:
            os.makedirs(os.path.join(base, KEEPER), exist_ok=True)
            if version == 2:
                _delegate(base)
        join([os.path.join(base, KEEPER) for base in bases])
        return cls(version, bases, homes)

    def sandbox(self, n, memory_mb, processes):
        """Make the cgroup of sandbox ``n``: its folders (one per hierarchy), limits set."""
        dirs = [os.path.join(base, f"sandbox-{n}") for base in self.bases]
        for d in dirs:
            os.mkdir(d)
        mem, pids = (dirs[0], dirs[0]) if self.version == 2 else dirs
        if self.version == 2:
            _write(f"{mem}/memory.max", str(memory_mb << 20))
            if os.path.exists(f"{mem}/memory.swap.max"):
                _write(f"{mem}/memory.swap.max", "0")
        else:
            _write(f"{mem}/memory.limit_in_bytes", str(memory_mb << 20))
            if os.path.exists(f"{mem}/memory.memsw.limit_in_bytes"):  # with swap: no more than that either
                _write(f"{mem}/memory.memsw.limit_in_bytes", str(memory_mb << 20))
        _write(f"{pids}/pids.max", str(processes))
        return dirs

    def describe(self, memory_mb, processes):
        return (f"a cgroup (v{self.version}) bounding the whole sandbox to {memory_mb} MB of memory "
                f"(tmpfs and shared memory included) and {processes} processes")

    def release(self, dirs):
        """Empty and remove a sandbox's cgroup, now or (if it is not empty yet) later."""
        self.pending.append(dirs)
        self.pending = [d for d in self.pending if not _remove(d)]

    def close(self, reap=lambda: None, seconds=5.0):
        """Remove every sandbox cgroup and the tree itself, killing what is left in them;
        ``reap`` reaps the zygote's children that have ended (the sandboxes' outer processes)."""
        deadline = time.monotonic() + seconds
        home = True
        for place in self.homes:  # back where we came from, so that the keeper can go too
            try:
                join([place])
            except OSError:
                home = False
        # The keeper may still hold a child that never reached its sandbox's cgroup (killed while
        # it started): it goes like the sandboxes' cgroups, killed and reaped, once we are out of it.
        for base in self.bases:
            try:
                self.pending += [[os.path.join(base, d)] for d in os.listdir(base)
                                 if d.startswith("sandbox-") or (home and d == KEEPER)]
            except OSError:
                pass
        while self.pending and time.monotonic() < deadline:
            reap()
            self.pending = [d for d in self.pending if not _remove(d)]
            if self.pending:
                time.sleep(0.02)
        for base in self.bases:
            try:
                os.rmdir(base)
            except OSError:  # still in use: the next zygote to start removes it
                pass


def _parents():
    """(cgroup version, the folders beside this process where trees go), or (0, [])."""
    mounts, own = _mounts(), _own_paths()
    if "memory" in mounts and "pids" in mounts and "memory" in own and "pids" in own:
        return 1, [os.path.join(mounts[c], own[c].lstrip("/")) for c in ("memory", "pids")]
    if "cgroup2" in mounts and "" in own:
        return 2, [os.path.join(mounts["cgroup2"], own[""].lstrip("/"))]
    return 0, []


def remove_ended(pid, reap=lambda: None, seconds=2.0):
    """Remove the tree of zygote ``pid``, which has ended, killing what is left in its sandboxes'
    cgroups. Called by the process that started the zygote, once it has reaped it: a zygote
    killed during its clean-up (or before it began) leaves its tree, and nobody else would
    remove it until another zygote starts beside it. A keeper that still holds a process
    belongs to a zygote that lives (the pid used again): that tree is left alone."""
    try:
        _, parents = _parents()
        bases = [os.path.join(p, n) for p in parents for n in os.listdir(p) if n.startswith(f"{PREFIX}{pid}-")]
    except OSError:
        return
    deadline = time.monotonic() + seconds
    while bases:
        for base in list(bases):
            try:
                _remove_tree(base, kill=True)
                bases.remove(base)
            except FileNotFoundError:
                bases.remove(base)
            except OSError:
                pass
        if not bases or time.monotonic() > deadline:
            return
        reap()
        time.sleep(0.02)


def join(dirs):
    """Move this process (and so all it will start) into the sandbox's cgroup."""
    for d in dirs:
        _write(f"{d}/cgroup.procs", str(os.getpid()))


def oom_kills(dirs):
    """How many processes the memory limit has killed in this cgroup (None if unknown)."""
    for name, key in (("memory.events", "oom_kill"), ("memory.oom_control", "oom_kill")):
        try:
            for line in _read(f"{dirs[0]}/{name}").splitlines():
                if line.startswith(key + " "):
                    return int(line.split()[1])
        except (OSError, ValueError):
            continue
    return None


def _remove(dirs) -> bool:
    """Kill what is left in the cgroup and remove its folders; True when they are gone."""
    gone = True
    for d in dirs:
        if not os.path.isdir(d):
            continue
        try:
            for pid in _read(f"{d}/cgroup.procs").split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    pass
            os.rmdir(d)
        except OSError:
            gone = False
    return gone


def _delegate(path):
    """cgroup v2: let the children of ``path`` have the memory and pids controllers."""
    wanted = {"memory", "pids"}
    if wanted <= set(_read(f"{path}/cgroup.subtree_control").split()):
        return
    if not wanted <= set(_read(f"{path}/cgroup.controllers").split()):
        raise OSError(0, "the memory and pids controllers are not available")
    _write(f"{path}/cgroup.subtree_control", "+memory +pids")


def _sweep(parent):
    """Remove the empty trees of zygotes that ended without removing theirs. Whether a zygote
    is alive cannot be told from its pid (a grader in another PID namespace may share this
    tree), but from its keeper: while the zygote is in it, it cannot be removed, and then the
    tree is left alone. Only folders go: nothing of another's is ever killed."""
    for name in os.listdir(parent):
        if not name.startswith(PREFIX):
            continue
        try:
            _remove_tree(os.path.join(parent, name), kill=False)
        except OSError:
            pass


def _remove_tree(base, kill):
    """Remove a zygote's tree: its keeper (refused, OSError, while its zygote lives), its sandboxes'
    cgroups (with ``kill``, what is left in them is killed first; without, a cgroup that holds a
    process is refused) and the tree itself."""
    if os.path.isdir(os.path.join(base, KEEPER)):
        os.rmdir(os.path.join(base, KEEPER))
    sandboxes = [os.path.join(base, d) for d in os.listdir(base) if d.startswith("sandbox-")]
    if kill:
        if not _remove(sandboxes):
            raise OSError(f"{base}: a sandbox's cgroup is still busy")
    else:
        for d in sandboxes:
            os.rmdir(d)
    os.rmdir(base)
