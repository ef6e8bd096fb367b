"""Landlock: what a process may open, where the system gives no namespaces (Linux 5.13 and newer).

Loaded by factory.py by path; standard library only. Landlock needs no
privilege: any process that has set no_new_privs may give up access for
itself and everything it will start, for good. ``restrict`` is called in the
process that will run a student's file, last, after confine.py dropped its
user and set its limits. From then on it may:

* read and execute below the folders it is given (the system's /usr and /etc,
  Python and its libraries, each library folder entry by entry so that the
  grading package and the install records beside NumPy are left out, though
  their names may be listed), read its own /proc/PID (but its net: the
  host's sockets, and its task: each thread's net), read and write four
  harmless devices, and read, write and create files only below its own
  scratch folder;
* nothing else in the file system: not the project, the solutions, the
  hidden checks, the grader's caches, the rest of /proc, nor another
  student's scratch;
* (ABI 4) neither bind nor connect TCP sockets;
* (ABI 6) neither signal nor reach the abstract Unix sockets of a process
  outside its own Landlock domain: the grader, the zygote, other sandboxes.

``abi`` says which version the kernel offers (0: none); ``restrict`` returns
the measures in words, or raises OSError when Landlock cannot be had.
"""

import ctypes
import ctypes.util
import errno
import os
import stat

# System call numbers: the same on every architecture (the unified table, after 424).
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3 and 5
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the rights a file (not a folder) may carry
READ = EXECUTE | READ_FILE | READ_DIR
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")
# Entries of a library folder left out: install hooks that name the project's path, install
# records, and the grading package itself where it is installed beside NumPy.
OWN_PACKAGES = ("graders", "attn_checks")

try:  # glibc's usual name first: find_library runs "ldconfig -p" (about 5 ms) each time
    _libc = ctypes.CDLL("libc.so.6", use_errno=True)
except OSError:
    _libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
_libc.syscall.restype = ctypes.c_long


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi() -> int:
    """The Landlock ABI version the kernel offers; 0 where it has none (or it is turned off)."""
    try:
        version = _libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (AttributeError, OSError):
        return 0
    return max(int(version), 0)


def handled(version):
    """(file-system rights, network rights, scopes) that ABI ``version`` knows, all of them handled."""
    fs = (1 << 13) - 1
    if version >= 2:
        fs |= REFER
    if version >= 3:
        fs |= TRUNCATE
    if version >= 5:
        fs |= IOCTL_DEV
    net = NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0
    return fs, net, scoped


def _check(result, what):
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def library_entries(folder):
    """The entries of a library folder a student process may read (see the module's docstring)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names
            if not (n in OWN_PACKAGES or n.startswith("__editable__") or n.endswith((".pth", ".dist-info",
                                                                                     ".egg-info", ".egg-link")))]


def plan(libraries, scratch):
    """[(path, rights)] for a student process: read below the system and the libraries, read
    and write the devices and below ``scratch``. Listed in the zygote's sandbox child, before
    anything is confined (a library folder may not be listable afterwards)."""
    rules = [(p, READ) for p in ("/usr", "/etc", "/bin", "/lib", "/lib64", "/sbin") if os.path.exists(p)]
    for folder in libraries:  # listed, so that imports find what is there; read, entry by entry
        rules += [(folder, READ_DIR)] + [(p, READ) for p in library_entries(folder)]
    rules += [(d, READ_FILE | WRITE_FILE) for d in DEVICES if os.path.exists(d)]
    rules.append((scratch, (1 << 13) - 1 | REFER | TRUNCATE))
    return rules


HIDDEN_PROC = ("net", "task")  # the host's sockets (/proc/net/tcp names every port and its owner); each thread's net


def own_proc(pid=None):
    """[(path, rights)]: the entries of this process's /proc/PID, but those of ``HIDDEN_PROC``. Without
    a network namespace, /proc/PID/net shows the host's sockets; a rule on /proc/PID itself would
    open it too (a rule holds for all that is below), so each entry has its own."""
    base = f"/proc/{os.getpid() if pid is None else pid}"
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    # not its symbolic links (root, cwd, exe): a rule is made on what a path opens to, and /proc/PID/root
    # opens to / itself; reading a link needs no right, and what it leads to keeps the rules it has
    return [(f"{base}/{n}", READ_FILE | READ_DIR) for n in names
            if n not in HIDDEN_PROC and not os.path.islink(f"{base}/{n}")]


def restrict(rules, version=None):
    """Give up every access ``rules`` do not grant, for this process and all it starts. This
    process may still read its own /proc/PID but its net and task (not another's, nor /proc itself)."""
    version = abi() if version is None else version
    if version < 1:
        raise OSError(errno.ENOSYS, "the kernel offers no Landlock")
    fs, net, scoped = handled(version)
    attr = _RulesetAttr(fs, net, scoped)
    size = 8 if version < 4 else 16 if version < 6 else 24
    ruleset = _check(_libc.syscall(CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)),
                     "landlock_create_ruleset")
    try:
        for path, rights in [*rules, *own_proc()]:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # gone since it was listed: nothing to grant
            try:
                if not stat.S_ISDIR(os.fstat(fd).st_mode):
                    rights &= FILE_RIGHTS
                rule = _PathBeneath(rights & fs, fd)
                _check(_libc.syscall(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
                                     ctypes.byref(rule), ctypes.c_uint32(0)), f"landlock_add_rule {path}")
            finally:
                os.close(fd)
        _check(_libc.syscall(RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    words = "Landlock: reads only the system, Python and its libraries; writes only its scratch folder"
    if net:
        words += "; no TCP"
    if scoped:
        words += "; no signals to, or abstract sockets of, processes outside the sandbox"
    return words
