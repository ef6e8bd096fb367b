"""A sandbox without namespaces: a private scratch folder and, as root, a user of its own.

Loaded by factory.py by path; standard library only. Where the system gives no
namespaces (a container without CAP_SYS_ADMIN, as Docker, Gradescope and
Kubernetes run by default; Ubuntu 24.04, which refuses unprivileged user
namespaces), a sandbox has no private root. Instead:

* the zygote makes a run folder of its own (``RunFolder``: mode 0700, or 0711
  as root so that each sandbox's user can reach its own folder in it), and in
  it one scratch folder per sandbox, mode 0700, holding only that student's
  files; it is removed when the sandbox has ended (scratch.remove: however deep,
  opening up what the student closed; a folder not removed yet, as a process of the
  student's still writes there, is tried again at each tidying), and the run folder
  when the zygote ends. What it may hold is bounded as a tmpfs would bound it: the
  sandbox's init measures it (scratch.py);
* as root, each sandbox runs as a user of its own, leased from ``UIDS``
  (a lock file per user id, held by the zygote while the sandbox lives, so
  two graders on one machine never share one): students cannot read each
  other's files or signal each other's processes, and the grader's own files
  can be closed to them. Before a user id is leased, and when its sandbox has
  ended, every process of that user is killed;
* the student's process is confined by Landlock (landlock.py) and seccomp
  (confine.py), which need no privilege.
"""

import fcntl
import os
import signal
import stat
import tempfile

PREFIX = "attn-grade-run-"
LOCK = ".zygote"  # in a run folder: locked by its zygote for as long as it lives
UIDS = range(61000, 64000)  # Debian's "allocated on demand" range, unused by ordinary accounts
LEASES = "/tmp/.attn-grade-uids"  # root's own folder of lease files, one per user id


class RunFolder:
    """The zygote's folder of scratch folders, and (as root) its leases of user ids."""

    def __init__(self, remove):
        self.remove = remove  # scratch.remove
        self.left = {}  # folders of ended sandboxes not removed yet -> the fd of their user's lease
        self.root = os.getuid() == 0
        self.path = tempfile.mkdtemp(prefix=PREFIX)
        self.lock = os.open(os.path.join(self.path, LOCK),
                            os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        os.chmod(self.path, 0o711 if self.root else 0o700)
        self.leases = {}  # sandbox number -> (uid, fd of its lease file)
        sweep(remove, keep=self.path)

    def place(self, n):
        """{"scratch": folder, "uid": user id or None} for sandbox ``n``."""
        scratch = os.path.join(self.path, f"sandbox-{n}")
        os.mkdir(scratch, 0o700)
        uid = None
        if self.root:
            uid, fd = lease()
            self.leases[n] = (uid, fd)
            os.chown(scratch, uid, uid)
        return {"scratch": scratch, "uid": uid}

    def release(self, n):
        """After sandbox ``n`` ended: kill what its user left running, remove its folder, end the
        lease (only once the folder is gone: no later sandbox of that user may find it)."""
        held = self.leases.pop(n, None)
        if held is not None:
            kill_user(held[0])
        self.left[os.path.join(self.path, f"sandbox-{n}")] = held and held[1]
        self.retry()

    def retry(self):
        """Remove the folders of ended sandboxes that are still there."""
        for folder, fd in list(self.left.items()):
            if self.remove(folder):
                del self.left[folder]
                if fd is not None:
                    os.close(fd)

    def close(self):
        for n in list(self.leases):
            self.release(n)
        self.retry()
        self.remove(self.path)
        os.close(self.lock)


def sweep(remove, keep=None, folder=None):
    """Remove the run folders that zygotes of this user left when they were killed outright:
    a real folder (not a link) of this user's, named PREFIX..., whose LOCK exists and is locked
    by nobody. A folder being made has no lock file yet, and a live zygote's is locked: both
    stay, as does everything of another user's. The names of the folders removed."""
    folder = folder or tempfile.gettempdir()
    gone = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(PREFIX)]
    except OSError:
        return gone
    for entry in entries:
        path = entry.path
        try:
            st = os.lstat(path)
            if path == keep or not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
                continue
            fd = os.open(os.path.join(path, LOCK), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.fstat(fd).st_uid == os.getuid() and remove(path):
                gone.append(entry.name)
        except OSError:
            pass  # its zygote lives
        finally:
            os.close(fd)
    return gone


def _lease_folder():
    """The folder of lease files: root's own, made if need be; refused if anybody else could write it."""
    try:
        os.mkdir(LEASES, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(LEASES)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o077:
        raise OSError(0, f"{LEASES} is not a folder of root's alone")
    return LEASES


def lease():
    """(a user id no other sandbox holds, the open lease file that holds it), its processes killed."""
    folder = _lease_folder()
    start = os.getpid() % len(UIDS)  # graders started together try different ids first
    for i in range(len(UIDS)):
        uid = UIDS[(start + i) % len(UIDS)]
        fd = os.open(os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        kill_user(uid)
        return uid, fd
    raise OSError(0, f"every one of the {len(UIDS)} sandbox user ids is in use")


def kill_user(uid):
    """Kill every process of user ``uid``: a child becomes that user and sends SIGKILL to all
    it may signal (kill(-1) reaches every process of the same user, and only those)."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        except BaseException:
            pass
        os._exit(0)
    os.waitpid(pid, 0)


def enter(place, files, libraries, m):
    """In the sandbox's first process (still the grader's user): fill the scratch folder with the
    student's ``files``, hand it to the sandbox's user, plan what Landlock will let the student
    process read (``libraries``: the folders Python needs) and move into the scratch folder.
    Returns what the sandbox is, as jail.enter does; raises OSError where it cannot be built."""
    scratch, uid = place["scratch"], place.get("uid")
    m.jail.write_files(scratch, files)
    if uid is not None:
        closed = unreachable(libraries)
        if closed:
            raise OSError(0, f"the sandbox's user cannot read Python's libraries: {closed}; install Python "
                             f"and its libraries where every user may read them (as Gradescope's setup.sh does)")
        for dirpath, dirnames, filenames in os.walk(scratch):
            for path in [dirpath, *(os.path.join(dirpath, n) for n in dirnames + filenames)]:
                os.chown(path, uid, uid, follow_symlinks=False)
    version = m.landlock.abi()
    rules = m.landlock.plan(libraries, scratch) if version else None
    os.setsid()
    os.chdir(scratch)
    os.environ["TMPDIR"] = scratch
    measures = ["a private scratch folder (mode 0700) holding only this student's files, removed afterwards"]
    missing = ["no namespaces (the system refuses them here): no private root, PID or network namespace"]
    return {"scratch": scratch, "namespaced": False, "userns": False, "uid": uid, "landlock": rules,
            "landlock_abi": version, "measures": measures, "missing": missing}


def unreachable(folders):
    """Why another user could not read ``folders`` (a folder on the way closed to others), or ""."""
    for folder in folders:
        path = os.path.realpath(folder)
        steps = [path] + [p for p in _ancestors(path)]
        for step in reversed(steps):
            try:
                mode = os.stat(step).st_mode
            except OSError:
                break
            need = stat.S_IXOTH | (stat.S_IROTH if step == path else 0)
            if mode & need != need:
                return f"{step} is closed to other users (mode {stat.S_IMODE(mode):o})"
    return ""


def _ancestors(path):
    while path != os.path.dirname(path):
        path = os.path.dirname(path)
        yield path
