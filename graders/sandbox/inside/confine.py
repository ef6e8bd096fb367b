"""Confine the one process that will run a student's file: user, privileges, limits, system calls.

Loaded by factory.py by path; standard library only. ``become_student`` is
called in each process that runs one of the student's files, after
jail.enter built the sandbox around it. It applies what the system allows
and returns the measures in words, so the grader can say plainly what
protected a run and what did not:

* the unprivileged user nobody when started as root with namespaces; no
  capabilities in an ordinary user's user namespace; a user of its own
  (flat.py) as root without namespaces; no new privileges;
* limits on CPU seconds, address space, file size, open files, core dumps,
  and (where no cgroup counts them per sandbox) processes;
* a seccomp filter, through libseccomp: no new namespaces of any kind (so no
  nested user, mount, PID or network namespace, and no mounting a fresh
  tmpfs), no mounts at all, no memfd_create (memory no limit would count
  where there is no cgroup), no kernel keyrings (shared by every sandbox's
  user nobody), and no bpf, perf_event_open, userfaultfd or io_uring, which
  no answer needs, and no System V IPC (shared memory, semaphores and
  message queues outlive the processes that made them and count against no
  limit of the sandbox). Student code never needs any of them. Without a network
  namespace, no socket() either;
* without namespaces, Landlock (landlock.py), last: the student process
  reads only the system and Python, and writes only its scratch folder.
"""

import ctypes
import ctypes.util
import errno
import os
import resource
import signal

SANDBOX_UID = 65534  # nobody
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 24, 36, 38
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x02000000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
NAMESPACE_FLAGS = (CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
                   CLONE_NEWNET)
DENIED = ("unshare", "setns", "mount", "umount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen",
          "fsconfig", "fsmount", "fspick", "mount_setattr", "memfd_create", "memfd_secret", "keyctl", "add_key",
          "request_key", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
          "io_uring_register",
          # System V IPC: its objects outlive the sandbox and count against no limit of it
          "shmget", "shmat", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget", "msgsnd", "msgrcv",
          "msgctl", "ipc")
NOFILE = 256  # open files; 64 where no cgroup bounds the sandbox
NPROC_WITHOUT_CGROUP = 16

try:  # glibc's usual name first: find_library runs "ldconfig -p" (about 5 ms) each time
    _libc = ctypes.CDLL("libc.so.6", use_errno=True)
except OSError:
    _libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _seccomp_names():
    yield "libseccomp.so.2"  # its usual name first, as for libc
    yield ctypes.util.find_library("seccomp")


def load_libseccomp():
    """libseccomp, opened now: in the zygote, before any sandbox hides the host's files."""
    for name in _seccomp_names():
        if name:
            try:
                lib = ctypes.CDLL(name, use_errno=True)
            except OSError:
                continue
            lib.seccomp_init.restype = ctypes.c_void_p
            lib.seccomp_init.argtypes = [ctypes.c_uint32]
            lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
            lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                                   ctypes.c_void_p]
            lib.seccomp_load.argtypes = [ctypes.c_void_p]
            lib.seccomp_release.argtypes = [ctypes.c_void_p]
            return lib
    return None


_seccomp = load_libseccomp()


class ArgCmp(ctypes.Structure):  # struct scmp_arg_cmp
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


SCMP_ACT_ALLOW, SCMP_CMP_MASKED_EQ = 0x7FFF0000, 7


def errno_action(err):
    return 0x00050000 | (err & 0xFFFF)  # SCMP_ACT_ERRNO


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def has_seccomp() -> bool:
    return _seccomp is not None


def deny_system_calls(sockets=False):
    """Load the seccomp filter of the module's docstring (with ``sockets``, no socket() either:
    without a network namespace, the host's network and its Unix sockets); raise OSError if
    it cannot be had."""
    if _seccomp is None:
        raise OSError(errno.ENOSYS, "libseccomp is not installed")
    ctx = _seccomp.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise OSError(errno.ENOMEM, "seccomp_init failed")
    try:
        def rule(name, action, cmps=()):
            nr = _seccomp.seccomp_syscall_resolve_name(name.encode())
            if nr < 0:  # not on this architecture or too new for this libseccomp
                return
            array = (ArgCmp * len(cmps))(*cmps) if cmps else None
            result = _seccomp.seccomp_rule_add_array(ctx, action, nr, len(cmps), array)
            if result != 0:
                raise OSError(-result, f"seccomp rule for {name}: {os.strerror(-result)}")

        for name in DENIED + (("socket",) if sockets else ()):
            rule(name, errno_action(errno.EPERM))
        for flag in NAMESPACE_FLAGS:  # clone(2) with any of them; its flags are its first argument
            rule("clone", errno_action(errno.EPERM), [ArgCmp(0, SCMP_CMP_MASKED_EQ, flag, flag)])
        # clone3 passes its flags in memory, out of a filter's sight: "not implemented" makes
        # the C library fall back to clone, which the rules above see
        rule("clone3", errno_action(errno.ENOSYS))
        result = _seccomp.seccomp_load(ctx)
        if result != 0:
            raise OSError(-result, f"seccomp_load: {os.strerror(-result)}")
    finally:
        _seccomp.seccomp_release(ctx)


def die_with_parent(sig=signal.SIGKILL, parent=None):
    """Be sent ``sig`` when the parent ends; if it already has (it is no longer ``parent``, by
    default the parent at the call), end now. The one place this is written: the sandbox's
    processes, the bounded helper, the batch's job processes and the learner's lanes use it.
    Only Linux has the signal; elsewhere (macOS) this does nothing."""
    parent = os.getppid() if parent is None else parent
    prctl = getattr(_libc, "prctl", None)
    if prctl is None:
        return
    _check(prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0), "prctl")
    if os.getppid() != parent:
        os._exit(128 + sig)


def hide_command_line(title):
    """Overwrite this process's command line (what /proc/PID/cmdline shows, for it and for
    every process it forks) with ``title``: it held the host paths of factory.py and the
    library folders. The bytes are written in place, between the kernel's arg_start and arg_end."""
    stat = open("/proc/self/stat").read()
    fields = stat[stat.rfind(")") + 2:].split()
    start, end = int(fields[45]), int(fields[46])  # fields 48 and 49 of proc(5)
    text = title.encode()[: max(end - start - 1, 0)]
    ctypes.memset(start, 0, end - start)
    ctypes.memmove(start, text, len(text))


def become_subreaper():
    """Have orphaned descendants reparented to this process (which reaps them), not to init."""
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def protect_from_oom_killer(protect=True):
    """The sandbox's outer process and init are never the ones its memory limit kills
    (student processes set theirs back); without the privilege for it, nothing changes."""
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("-1000" if protect else "0")
    except OSError:
        pass


def limit_resources(cpu_seconds, memory_mb, file_mb, nproc=None, nofile=NOFILE):
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    mem = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def drop_privileges(uid):
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def drop_capabilities():
    """In a user namespace (no real root to give up): no capabilities at all."""
    for cap in range(64):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails quietly past the last capability
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable, two words each: zero
    _check(_libc.capset(header, data), "capset")


def become_student(cfg, box, landlock):
    """In the process that will run a student's file: drop privileges, set limits, filter
    system calls and, without namespaces, give up the file system but for Landlock's rules.
    ``cfg["cgroup"]``: whether a cgroup bounds the sandbox as a whole; ``box``: what the
    sandbox is (jail.enter, flat.enter); ``landlock``: landlock.py. Returns {"measures", "missing", "protections"}:
    the measures and what is missing in words, and which protections hold, as flags."""
    measures, missing = list(box["measures"]), list(box["missing"])
    namespaced, userns, uid = box["namespaced"], box["userns"], box.get("uid")
    protect_from_oom_killer(False)  # the init's protection is not for student code
    if namespaced and not userns:
        drop_privileges(SANDBOX_UID)
        measures.append("the unprivileged user nobody")
    elif namespaced:
        drop_capabilities()
        measures.append("no capabilities, in a user namespace of its own")
    elif uid is not None:
        drop_privileges(uid)
        measures.append("an unprivileged user of its own, which no other sandbox has")
    else:
        missing.append("runs as the grading user (not started as root, and no namespaces to hide it)")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    grouped = bool(cfg.get("cgroup"))
    if grouped:
        nproc = max(cfg["processes"], 64)  # a backstop: the cgroup counts the sandbox's processes
    elif namespaced or uid is not None:
        nproc = NPROC_WITHOUT_CGROUP  # counted for this user (nobody, or a user namespace's) alone
    else:
        nproc = _tasks_of(os.getuid()) + NPROC_WITHOUT_CGROUP  # the grading user's own count goes on
    limit_resources(cfg["cpu"], cfg["memory_mb"], cfg["file_mb"], nproc, NOFILE if grouped else 64)
    measures.append(f"limits of {cfg['cpu']} s CPU, {cfg['memory_mb']} MB memory, {cfg['file_mb']} MB "
                    f"per file, {NOFILE if grouped else 64} open files"
                    + ("" if grouped else f", {NPROC_WITHOUT_CGROUP} processes"))
    setting = ("namespaces" if not userns else "user namespace") if namespaced else \
        "own user" if uid is not None else "landlock"
    flags = {"setting": setting, "private_root": namespaced, "files": namespaced, "signals": namespaced or uid is not None,
             "own_user": namespaced or uid is not None, "seccomp": False, "landlock": 0, "cgroup": grouped,
             "network": namespaced}
    try:
        deny_system_calls(sockets=not namespaced)
        flags["seccomp"] = True
        measures.append("a seccomp filter: no new namespaces or mounts, no memfd_create, no kernel keyrings"
                        + ("" if namespaced else ", no new sockets"))
        flags["network"] = True
    except OSError as exc:
        missing.append(f"no seccomp filter ({exc.strerror or exc}): the code may create namespaces of its "
                       f"own, mount a tmpfs inside them, and hold memory in a memfd")
    if not namespaced:
        _landlock(box, flags, measures, missing, landlock)
    return {"measures": measures, "missing": missing, "protections": flags}


def _landlock(box, flags, measures, missing, landlock):
    """Without namespaces: Landlock's rules (flat.py planned them), last of all."""
    rules, version = box.pop("landlock", None), box.get("landlock_abi", 0)  # paths no frame need keep
    if rules is None:
        missing.append("no Landlock (this kernel has none): the code can read what its user can read")
        flags["setting"] = "limits only" if box.get("uid") is None else "own user without Landlock"
        return
    measures.append(landlock.restrict(rules, version))
    flags["landlock"], flags["files"] = version, True
    flags["signals"] = flags["signals"] or version >= 6
    if version < 6:
        missing.append(f"Landlock ABI {version} (6 scopes signals): the code may signal the grader's processes")


def _tasks_of(uid):
    """How many processes (threads included, as RLIMIT_NPROC counts them) user ``uid`` has."""
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/status") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line)
                if int(fields["Uid"].split()[0]) == uid:
                    count += int(fields["Threads"])
            except (OSError, KeyError, ValueError):
                continue
    return count
