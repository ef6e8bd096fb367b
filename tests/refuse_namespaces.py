#!/usr/bin/env python3
"""Run a command where new namespaces are refused, as users' systems refuse them.

    python3 tests/refuse_namespaces.py user -- COMMAND...   no user namespaces (Ubuntu 24.04's default)
    python3 tests/refuse_namespaces.py all -- COMMAND...    no namespaces at all (Docker's default seccomp
                                                            profile, for a process without CAP_SYS_ADMIN)

A seccomp filter (through libseccomp, as graders/sandbox/confine.py loads its
own) makes unshare(2) and clone(2) fail with EPERM when they ask for those
namespaces, and clone3(2) fail with ENOSYS so that the C library falls back to
clone, whose flags a filter can see. It is inherited by the command and all it
starts, and no process can lift it. The test settings of .ci/run use it.
"""

import ctypes
import ctypes.util
import errno
import os
import sys

NEWNS, NEWCGROUP, NEWUTS, NEWIPC = 0x00020000, 0x02000000, 0x04000000, 0x08000000
NEWUSER, NEWPID, NEWNET = 0x10000000, 0x20000000, 0x40000000
KINDS = {"user": (NEWUSER,), "all": (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET)}
ALLOW, MASKED_EQ = 0x7FFF0000, 7


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


def refuse(flags) -> None:
    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.c_void_p]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(ALLOW)

    def rule(name, err, flag=None):
        cmps = (ArgCmp * 1)(ArgCmp(0, MASKED_EQ, flag, flag)) if flag else None
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if lib.seccomp_rule_add_array(ctx, 0x00050000 | err, nr, 1 if flag else 0, cmps) != 0:
            sys.exit(f"refuse_namespaces: could not add the rule for {name}")

    for flag in flags:
        rule("unshare", errno.EPERM, flag)
        rule("clone", errno.EPERM, flag)
    rule("clone3", errno.ENOSYS)
    if lib.seccomp_load(ctx) != 0:
        sys.exit("refuse_namespaces: seccomp_load failed")


def main(argv) -> int:
    if len(argv) < 3 or argv[0] not in KINDS or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    refuse(KINDS[argv[0]])
    os.execvp(argv[2], argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
