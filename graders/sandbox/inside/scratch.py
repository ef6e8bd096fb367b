"""A scratch folder's bound: what a sandbox may write, measured in every setting; and its removal.

Loaded by factory.py by path; standard library only (the parent's side imports it for DEPTH).
A sandbox may write at most ``scratch_mb`` megabytes and ``scratch_entries`` files and folders
(Limits, graders/sandbox/zygote.py). With namespaces its scratch folder is a tmpfs of just that
size and number of inodes (jail.py), which refuses more; without them it is a folder on the
host's disk (flat.py), where the system bounds only each file (RLIMIT_FSIZE). Either way the
sandbox's init (init.py) asks ``reached`` every TICK seconds while the sandbox lives (less often
when the folder is long to measure), and again whenever the parent has read an answer; once a
bound is reached it ends the sandbox and says which, so the call that wrote too much earns
nothing. ``reached`` measures:

* a tmpfs by statvfs: exactly what it holds, deleted files still open included;
* a folder on the host's disk by ``walk``, through file descriptors (no symbolic link is
  followed and no path grows long), which stops as soon as a bound is reached, so no folder can
  make it slow: at most ``scratch_entries`` entries are looked at, each file counted once (hard
  links) at the larger of its size and its blocks (some file systems count blocks late). A
  folder the student closed (mode 000) is opened up (0700) first: the init is its owner, or root.
  Folders nested deeper than DEPTH reach a bound too (the walk holds a descriptor per level);
* and, on the host's disk, ``held``: deleted files the sandbox's processes still hold open
  (counted exactly) or mapped (counted at the most a file may hold: their size is not shown).

``remove`` takes such a folder away after its sandbox, however deep and however closed.
"""

import os
import stat

TICK = 0.05  # seconds between two looks
DEPTH = 64  # folders below the scratch folder, nested
CAUSES = ("size", "entries", "depth", "closed")  # the bounds reached, as the init names them
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


class Reached(Exception):
    """A bound was reached; ``args[0]`` is one of CAUSES."""


class _Tally:
    def __init__(self, cfg):
        self.room, self.entries = cfg["scratch_mb"] << 20, cfg["scratch_entries"]
        self.file_bytes = cfg["file_mb"] << 20
        self.seen = set()  # (device, inode) of the files counted

    def entry(self):
        self.entries -= 1
        if self.entries <= 0:
            raise Reached("entries")

    def count(self, info):
        self.add((info.st_dev, info.st_ino), max(info.st_size, info.st_blocks * 512))

    def add(self, key, size):
        if key not in self.seen:
            self.seen.add(key)
            self.room -= size
            if self.room <= 0:
                raise Reached("size")


def reached(box, cfg, pids=(), maps=True):
    """None while the scratch folder of ``box`` (what jail.enter or flat.enter made) is within
    the bounds of ``cfg``, else which it reached (one of CAUSES). ``pids``: the sandbox's
    student processes, whose deleted files count too (``maps``: those mapped too, which costs
    some 0.2 ms a process: not after every answer)."""
    if box["namespaced"]:
        s = os.statvfs(box["scratch"])
        if (s.f_blocks - s.f_bfree) * s.f_frsize >= cfg["scratch_mb"] << 20:
            return "size"
        return "entries" if s.f_files - s.f_ffree - 1 >= cfg["scratch_entries"] else None  # 1: its root
    tally = _Tally(cfg)
    try:
        device = walk(box["scratch"], tally)
        held(pids, device, box["scratch"], tally, maps)
    except Reached as exc:
        return exc.args[0]
    return None


def walk(path, tally):
    """Count the folder ``path`` and all below it in ``tally``; its device."""
    fd = _open_dir(path)
    if fd is None:
        raise Reached("closed")  # the scratch folder itself is no folder any more
    try:
        info = os.fstat(fd)
        tally.count(info)
        _below(fd, 1, tally)
        return info.st_dev
    finally:
        os.close(fd)


def _below(fd, depth, tally):
    with os.scandir(fd) as entries:
        for entry in entries:
            tally.entry()
            info = _lstat(entry.name, fd)
            if info is None:
                continue  # gone meanwhile
            tally.count(info)
            if stat.S_ISDIR(info.st_mode):
                if depth >= DEPTH:
                    raise Reached("depth")
                sub = _open_dir(entry.name, fd)
                if sub is not None:
                    try:
                        _below(sub, depth + 1, tally)
                    finally:
                        os.close(sub)


def _lstat(name, fd):
    for _ in range(2):
        try:
            return os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except PermissionError:  # the folder was closed since it was opened
            os.chmod(fd, 0o700)
    raise Reached("closed")


def _open_dir(name, parent=None, need=0o500):
    """A descriptor of the folder ``name`` (in ``parent``), opened up (0700) where its owner may
    not open it, or lacks ``need`` (read and search; write too, to empty it); None if it is gone
    or is no folder (a link put in its place). Reached("closed") where even that fails."""
    try:
        try:
            fd = os.open(name, _DIR, dir_fd=parent)
        except PermissionError:
            here = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
            try:  # fixed to this inode: a link swapped in meanwhile is never followed
                if not stat.S_ISDIR(os.fstat(here).st_mode):
                    return None
                os.chmod(f"/proc/self/fd/{here}", 0o700)
            finally:
                os.close(here)
            fd = os.open(name, _DIR, dir_fd=parent)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: a symbolic link, not followed
            return None
        raise Reached("closed") from None
    if os.fstat(fd).st_mode & need != need:
        os.chmod(fd, 0o700)
    return fd


def held(pids, device, scratch, tally, maps=True):
    """Count the deleted files that the processes ``pids`` hold open (on ``device``) or, with
    ``maps``, mapped (those that were below ``scratch``): they use the disk until the sandbox ends."""
    below = os.fsencode(scratch) + b"/"
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            mapped = _read(f"/proc/{pid}/maps") if maps else b""
        except OSError:
            continue  # ended meanwhile
        for fd in fds:
            try:
                info = os.stat(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_nlink == 0 and info.st_dev == device:
                tally.entry()
                tally.count(info)
        for line in mapped.splitlines():
            if line.endswith(b" (deleted)"):
                fields = line.split(None, 5)
                if len(fields) == 6 and fields[5].startswith(below) and fields[4].isdigit():
                    tally.add((device, int(fields[4])), tally.file_bytes)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def family(pid):
    """``pid`` and the processes below it, as /proc lists them (only ``pid`` where it cannot)."""
    found, todo = {}, [pid]  # a dict keeps the order: parents first
    while todo and len(found) < 4096:
        p = todo.pop()
        found[p] = None
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in _read(f"/proc/{p}/task/{tid}/children").split() if int(c) not in found]
        except (OSError, ValueError):
            pass
    return list(found)


def remove(path, most=1_000_000):
    """Remove the folder ``path`` and all below it without following a link, opening up folders
    the student closed, however deep: each pass moves the folders two levels down up to the top,
    so that no more than two are open at a time. At most ``most`` folders are taken in one go (a
    process still writing there is killed before the next). Whether it is gone."""
    try:
        top = _open_dir(path, need=0o700)
    except Reached:
        top = None
    if top is None:
        return not os.path.lexists(path)
    try:
        while most > 0:
            folders = _clear(top)
            if not folders:
                break
            for name in folders:
                sub = _open_dir(name, top, need=0o700)
                if sub is not None:
                    try:
                        for inner in _clear(sub):
                            most -= 1
                            # moving a folder rewrites its "..": without root, it must be writable
                            opened = _open_dir(inner, sub, need=0o700)
                            if opened is not None:
                                os.close(opened)
                            _move_up(inner, sub, top, most)
                    finally:
                        os.close(sub)
                os.rmdir(name, dir_fd=top)
                most -= 1
        os.rmdir(path)
    except (OSError, Reached):
        pass
    finally:
        os.close(top)
    return not os.path.lexists(path)


def _clear(fd):
    """Unlink every entry of the folder ``fd`` that is no folder; the names of its folders."""
    folders = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.name)
            else:
                os.unlink(entry.name, dir_fd=fd)
    return folders


def _move_up(name, fd, top, n):
    """Move the folder ``name`` of the folder ``fd`` to ``top``, under a name no folder there has."""
    for i in range(100):
        try:
            return os.rename(name, f".removed-{n}-{i}", src_dir_fd=fd, dst_dir_fd=top)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno != 39:  # ENOTEMPTY: a folder of that name is there
                raise
    raise OSError(17, "no free name")
