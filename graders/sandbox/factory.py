"""The worker factory: the processes around a student's code that never run it.

Started by zygote.py as ``python -I -S -c BOOT factory.py zygote CTRL_FD
LIBDIR...``: standard library only, plus its siblings (inside, files,
cgroups, jail, confine, worker) loaded by path, so the grading package, the graders and the
reference solutions are never imported here. BOOT compiles this file, and it
compiles its siblings, under neutral names (/attn-grade/NAME.py), and the
zygote overwrites its own command line, so neither a traceback, a module's
``__file__``, a frame's code nor /proc tells the student where the project is.

``zygote`` imports NumPy and SymPy once, then forks one sandbox per student,
each in a cgroup of its own where the system has them (cgroups.py); what
happens in that fork is inside.py's.
"""

import json
import os
import signal
import sys
from types import SimpleNamespace

NEUTRAL = "/attn-grade"  # the folder our files seem to come from, to code in the sandbox
TITLE = "attn-grade-sandbox"  # the command line of the zygote and of every process it forks
SIBLINGS = ("files", "cgroups", "jail", "confine", "worker", "inside")


def zygote(ctrl_fd, m):
    """Pre-import the heavy libraries once, then fork a student's sandbox per request.

    Requests arrive on a Unix socket with the sandbox's control socket attached
    (SCM_RIGHTS): {"op": "spawn", "folder": ..., "first": [names], "sandbox":
    {...}} answers {"pid": n, "cgroup": folder or null}. Sandboxes that have
    ended are reaped (and their cgroups removed) at the next request; nobody asks
    for their status (a worker's own status comes from its sandbox's init). When
    the grading process hangs up or ends, every sandbox's cgroup is removed.
    """
    import socket

    import numpy  # noqa: F401 - imported once here, shared by every fork

    sympy = None
    if os.environ.get("ATTN_ZYGOTE_SYMPY", "1") != "0":  # "0": the parent knows no file needs it
        try:
            import sympy  # noqa: F401
        except ImportError:
            pass
    _warm_up(numpy, sympy)
    tree, why = m.cgroups.Tree.open()
    # Orphans of a sandbox (its init, when the outer process is killed first) become ours to reap:
    # a zombie still counts as a member of its cgroup, which cannot be removed before it is reaped.
    m.confine.become_subreaper()
    # the grading process that started us was killed (kill -9): so are we, once the cgroups are gone
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    m.confine.die_with_parent(signal.SIGTERM)
    sock, boxes, made = socket.socket(fileno=ctrl_fd), {}, 0
    try:
        while True:
            try:
                msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 8)
            except OSError:
                return
            if not msg:
                return
            req = json.loads(msg.decode("utf-8"))
            del msg  # held a student's host path (see child)
            for pid in _reap():
                if tree is not None and pid in boxes:
                    tree.release(boxes.pop(pid))
            if req["op"] == "spawn":
                made += 1
                cgroup = _make_cgroup(tree, why, made, req["sandbox"])
                pid = os.fork()
                if pid == 0:
                    sock.close()
                    m.inside.child(req, fds, m, cgroup)
                for fd in fds:
                    os.close(fd)
                if cgroup[0]:
                    boxes[pid] = cgroup[0]
                sock.send(json.dumps({"pid": pid, "cgroup": cgroup[0] and cgroup[0][0]}).encode())
    finally:
        # A second SIGTERM (the grading process's death signal after it hung up) would raise
        # SystemExit inside the clean-up and leave its cgroups behind: ignored from here on.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if tree is not None:
            tree.close(reap=_reap)


def _make_cgroup(tree, why, n, cfg):
    """(the cgroup folders of sandbox ``n``, what they bound), or (None, why there are none)."""
    if tree is None:
        return None, why
    try:
        return tree.sandbox(n, cfg["memory_mb"], cfg["processes"]), tree.describe(cfg["memory_mb"], cfg["processes"])
    except OSError as exc:
        return None, f"the sandbox's cgroup could not be made ({exc.strerror or exc})"


def _warm_up(np, sp):
    """Use NumPy and SymPy once, so that every fork finds their lazy imports and caches ready.

    Each exercise file gets a fresh fork (handle.py, Worker); without
    this, each would pay again for SymPy's first expressions and printing.
    """
    a = np.random.default_rng(0).standard_normal((4, 3))
    s = a @ a.T / np.sqrt(3.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    np.einsum("ij,kj->ik", e / e.sum(axis=-1, keepdims=True), e)
    np.tril(np.ones((3, 3), dtype=bool))
    if sp is not None:
        d = sp.Symbol("d", positive=True, integer=True)
        x = sp.exp(1 / sp.sqrt(2)) / (1 + sp.exp(1 / sp.sqrt(2))) + d / 2 - sp.Rational(1, 3)
        sp.srepr(sp.Tuple(x, sp.Integer(0), sp.Float(0.5), x.evalf(15)))


def _reap():
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


def _sibling(folder, name):
    """Load ``name``.py from ``folder``, compiled under a neutral file name."""
    import importlib.util

    neutral = f"{NEUTRAL}/{name}.py"
    with open(os.path.join(folder, name + ".py"), "rb") as f:
        code = compile(f.read(), neutral, "exec", dont_inherit=True)
    spec = importlib.util.spec_from_loader("_attn_" + name, loader=None, origin=neutral)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = neutral
    sys.modules[spec.name] = module  # as an import would: findable, not hidden (hiding protects nothing)
    exec(code, module.__dict__)
    return module


def _siblings(folder):
    return SimpleNamespace(**{name: _sibling(folder, name) for name in SIBLINGS})


def main():
    # python -I -S -c BOOT factory.py zygote CTRL_FD LIBDIR... (or python -I -S factory.py zygote ...)
    args = sys.argv[1:] if sys.argv[0] == "-c" else sys.argv
    fd = int(args[2])
    sys.path.extend(args[3:])  # the library folders (numpy, sympy); no .pth hooks run
    m = _siblings(os.path.dirname(os.path.abspath(args[0])))
    del args  # a frame's locals are readable from the sandbox: no host path may stay in them
    sys.argv = sys.orig_argv = [TITLE]
    m.confine.hide_command_line(TITLE)
    zygote(fd, m)


if __name__ == "__main__":
    main()
