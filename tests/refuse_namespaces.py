#!/usr/bin/env python3
"""Run a command where new namespaces are refused, as users' systems refuse them.

    python3 tests/refuse_namespaces.py user -- COMMAND...   no user namespaces (Ubuntu 24.04's default)
    python3 tests/refuse_namespaces.py all -- COMMAND...    no namespaces at all (Docker's default seccomp
                                                            profile, for a process without CAP_SYS_ADMIN)

A seccomp filter (through libseccomp, as graders/sandbox/inside/confine.py loads its
own) makes unshare(2) and clone(2) fail with EPERM when they ask for those
namespaces, and clone3(2) fail with ENOSYS so that the C library falls back to
clone, whose flags a filter can see. It is inherited by the command and all it
starts, and no process can lift it. The test settings of .ci/run use it.
"""

import errno
import importlib.util
import os
import sys
from pathlib import Path

NEWNS, NEWCGROUP, NEWUTS, NEWIPC = 0x00020000, 0x02000000, 0x04000000, 0x08000000
NEWUSER, NEWPID, NEWNET = 0x10000000, 0x20000000, 0x40000000
KINDS = {"user": (NEWUSER,), "all": (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET)}

CONFINE = Path(__file__).resolve().parent.parent / "graders" / "sandbox" / "inside" / "confine.py"


def _confine():
    """graders/sandbox/inside/confine.py, loaded by path (standard library only, as the zygote loads it):
    its way of opening libseccomp serves here too, whatever Python runs this."""
    spec = importlib.util.spec_from_file_location("_attn_confine", CONFINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refuse(flags) -> None:
    confine = _confine()
    lib = confine.load_libseccomp()
    if lib is None:
        sys.exit("refuse_namespaces: libseccomp is not installed")
    ctx = lib.seccomp_init(confine.SCMP_ACT_ALLOW)

    def rule(name, err, flag=None):
        cmps = (confine.ArgCmp * 1)(confine.ArgCmp(0, confine.SCMP_CMP_MASKED_EQ, flag, flag)) if flag else None
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if lib.seccomp_rule_add_array(ctx, confine.errno_action(err), nr, 1 if flag else 0, cmps) != 0:
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
