"""Build the sandbox around a student's processes (Linux): namespaces, a private root, the scratch.

Loaded by factory.py by path; standard library only. ``enter`` is called once
per student in a freshly forked child and builds the sandbox; ``reset`` cleans
it between two of the student's processes (each of those then confines itself
with confine.py). Where the zygote found no namespaces, flat.py builds the sandbox instead.
They return the measures in words, so the grader can say plainly what
protected a run:

* new PID, mount, network, IPC and UTS namespaces (as root, or inside a new
  user namespace for an ordinary user): the code sees only its own processes,
  has no network, and killing the sandbox's outer process ends every process
  it started, even ones that called setsid();
* a private root file system: an empty tmpfs holding read-only binds of /usr,
  /etc and the Python installation, a fresh /proc, four harmless devices, and
  one writable tmpfs, /scratch, with this student's files only, as large and holding as
  many files and folders as the sandbox may write (``scratch_tmpfs``, scratch.py). The
  project (solutions, graders), the other submissions and the output folder
  are simply not there; nor are the hooks an editable install leaves in the
  library folder (they name the project's path), which are covered by empty
  files. The command line of every process in the sandbox is a plain title
  (``hide_command_line``), so /proc shows no host path either.
"""

import ctypes
import ctypes.util
import os
import select
import signal

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4
DEVICES = ("null", "zero", "random", "urandom")
SCRATCH = "/scratch"  # where a student's files are, inside the sandbox
# Bound read-only into every private root, with the zygote's library folders (its sys.path):
# grading/plancache.py keeps its caches outside all of them.
SYSTEM_FOLDERS = ("/usr", "/etc")

try:  # glibc's usual name first: find_library runs "ldconfig -p" (about 5 ms) each time
    _libc = ctypes.CDLL("libc.so.6", use_errno=True)
except OSError:
    _libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data=None):
    _check(_libc.mount(source.encode() if source else None, target.encode(),
                       fstype.encode() if fstype else None, ctypes.c_ulong(flags),
                       data.encode() if data else None), f"mount {target}")


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def enter_namespaces():
    """Unshare the namespaces (with a user namespace when not root); raise OSError if refused."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if uid != 0:
        _check(_libc.unshare(ctypes.c_int(CLONE_NEWUSER | flags)), "unshare")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"0 {uid} 1")
        _write("/proc/self/gid_map", f"0 {gid} 1")
        return "user, PID, mount, network and IPC namespaces"
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")
    return "PID, mount, network and IPC namespaces"


def can_confine() -> bool:
    """Whether this process can give a sandbox its namespaces and mount in them (tried in a
    child that then ends: Ubuntu 24.04 lets a user namespace be made, without the rights in it)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            enter_namespaces()
            _mount(None, "/", None, MS_REC | MS_PRIVATE)
            _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m")
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def fork_into_pid_namespace():
    """Fork; the child is PID 1 of the new namespace and dies with this process.

    Returns in the child only. This process (outside) waits and exits with the
    child's status (128 + signal if killed), so killing it ends the sandbox.
    """
    alive_r, alive_w = os.pipe()  # held open by this process until it ends
    pid = os.fork()
    if pid == 0:
        os.close(alive_w)
        _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
        # Killed before the prctl above? Then no signal will come: its end of the pipe is closed.
        if select.select([alive_r], [], [], 0)[0]:
            os._exit(128 + signal.SIGKILL)
        os.close(alive_r)
        return
    os.close(alive_r)
    close_fds(keep={alive_w})  # the parent sees the sandbox's ends hang up when the init does
    _exit_like(pid)


def close_fds(keep=()):
    """Close every file descriptor but ``keep``."""
    for fd in os.listdir("/proc/self/fd"):
        if int(fd) not in keep:
            try:
                os.close(int(fd))
            except OSError:
                pass


def reset(scratch, files, tmpfs):
    """In the namespace's init, between two student processes: a clean sandbox.

    Every other process in the namespace is killed and reaped (kill(-1) from
    PID 1 reaches them all, even ones that called setsid), the scratch folder
    becomes a fresh tmpfs (mounted with the options ``tmpfs``) holding the student's
    files as they were handed in, and the next process gets a new IPC namespace, so
    nothing one exercise file left behind (processes, files, shared memory) reaches the next.
    """
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
    os.chdir("/")
    _check(_libc.umount2(scratch.encode(), ctypes.c_int(MNT_DETACH)), f"umount {scratch}")
    _fresh_scratch(scratch, files, tmpfs)
    os.chdir(scratch)
    _check(_libc.unshare(ctypes.c_int(CLONE_NEWIPC)), "unshare")


def _exit_like(pid):
    """Reap children until ``pid`` ends, then exit with its status (128 + signal if killed)."""
    while True:
        try:
            done, status = os.wait()  # also reaps orphans reparented to this process
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(0)
        if done == pid:
            break
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def _bind_ro(source, target):
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _makedirs(path, mode=0o755):
    os.makedirs(path, mode=mode, exist_ok=True)


def build_root(libraries, files, tmpfs, newroot="/tmp"):
    """Replace the file system by a minimal one and enter it (see the module's docstring); the
    scratch folder is a tmpfs mounted with the options ``tmpfs`` (``scratch_tmpfs``).

    Sources are opened, and their install hooks listed, before the new root
    covers ``newroot``, so a library folder below it (a virtualenv in /tmp)
    still binds correctly and its hooks are still hidden.
    """
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    sources = {}
    for path in [*SYSTEM_FOLDERS, *libraries]:
        real = os.path.realpath(path)
        if os.path.isdir(real) and real not in sources:
            sources[real] = os.open(real, os.O_PATH | os.O_DIRECTORY)
    links = {name: os.readlink("/" + name) for name in ("bin", "lib", "lib64", "sbin")
             if os.path.islink("/" + name)}
    hooks = {real: _install_hooks(real) for real in sources}  # listed while a folder below newroot shows
    _mount("tmpfs", newroot, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")
    for real, fd in sorted(sources.items()):
        _makedirs(newroot + real)
        _bind_ro(f"/proc/self/fd/{fd}", newroot + real)
        os.close(fd)
    for real, names in hooks.items():
        for name in names:  # bound over by an empty file, so they read as nothing
            _mount("/dev/null", f"{newroot}{real}/{name}", None, MS_BIND)
    for name, dest in links.items():
        if not os.path.lexists(f"{newroot}/{name}"):
            os.symlink(dest, f"{newroot}/{name}")
    _makedirs(newroot + "/dev")
    for dev in DEVICES:
        open(f"{newroot}/dev/{dev}", "w").close()
        _mount(f"/dev/{dev}", f"{newroot}/dev/{dev}", None, MS_BIND)
    _makedirs(newroot + "/proc")
    _mount("proc", newroot + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    box = newroot + SCRATCH
    _makedirs(box)
    _fresh_scratch(box, files, tmpfs)
    _mount(None, newroot, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir(newroot)
    _mount(newroot, "/", None, MS_MOVE)
    _check(_libc.chroot(b"."), "chroot")
    os.chdir(SCRATCH)


def _install_hooks(folder):
    """Files of a library folder that name where things were installed from: an editable
    install's finder and .pth file (they hold the project's path) and direct_url.json."""
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        if name.startswith("__editable__") or name.endswith(".pth"):
            found.append(name)
        elif name.endswith(".dist-info") and os.path.isfile(f"{folder}/{name}/direct_url.json"):
            found.append(f"{name}/direct_url.json")
    return [n for n in found if os.path.isfile(f"{folder}/{n}") and not os.path.islink(f"{folder}/{n}")]


def scratch_tmpfs(cfg):
    """The scratch tmpfs's options: the size and the files and folders (nr_inodes counts its
    root too) the sandbox may write (``cfg``: Limits, graders/sandbox/zygote.py)."""
    return f"size={cfg['scratch_mb']}m,nr_inodes={cfg['scratch_entries'] + 1},mode=777"


def _fresh_scratch(path, files, tmpfs):
    """A new tmpfs at ``path`` (options ``tmpfs``) holding the student's ``files``, which the sandbox's
    user may write (this tmpfs is in the sandbox's own mount namespace: nobody else sees it)."""
    _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, tmpfs)
    write_files(path, files)
    for dirpath, _, filenames in os.walk(path):
        os.chmod(dirpath, 0o777)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o666)


def write_files(scratch, files):
    """Write ``files`` (relative path -> bytes) below ``scratch``; folders 0700, files 0600."""
    for rel, data in files.items():
        path = os.path.join(scratch, rel)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with open(fd, "wb") as f:
            f.write(data)


def enter(cfg, files):
    """Build the sandbox; return what it is as a dict: scratch, namespaced, userns, uid,
    measures and missing (in words).

    ``cfg``: libraries (folders Python needs, bound read-only); ``files``: the
    student's files, by path relative to the scratch folder (SCRATCH in the
    sandbox). Called in a forked child where the zygote found that namespaces
    work (can_confine); it forks once more and only the new PID 1 of the
    namespace returns: the sandbox's init,
    which keeps its root credentials and parent-death signal and never runs
    student code. The kernel clears a process's parent-death signal when its
    credentials change, so an init that became nobody, or student code calling
    prctl, could otherwise outlive the outer process; being the namespace's
    init with default handlers, it ignores every signal sent from inside, and
    it is not dumpable, so the student's processes cannot trace it or read its
    file descriptors. Killing the outer process ends the init and with it every
    process in the namespace. The working directory is left at the scratch folder.
    Raises OSError if the namespaces cannot be had after all: never a sandbox without them.
    """
    userns = os.getuid() != 0
    measures = [enter_namespaces()]
    fork_into_pid_namespace()
    build_root(cfg["libraries"], files, scratch_tmpfs(cfg))
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    measures.append("a private read-only file system holding only system libraries, Python and a "
                    "writable scratch folder with this student's files")
    os.environ["TMPDIR"] = SCRATCH
    return {"scratch": SCRATCH, "namespaced": True, "userns": userns, "uid": None, "measures": measures,
            "missing": []}
