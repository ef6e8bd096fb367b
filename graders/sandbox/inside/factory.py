"""The worker factory: the processes around a student's code that never run it.

Started by zygote.py as ``python -I -S -c BOOT factory.py zygote CTRL_FD
LIBDIR...``: standard library only, plus its siblings (init, files,
cgroups, jail, confine, worker) loaded by path, so the grading package, the graders and the
reference solutions are never imported here. BOOT compiles this file, and it
compiles its siblings, under neutral names (/attn-grade/NAME.py), and the
zygote overwrites its own command line, so neither a traceback, a module's
``__file__``, a frame's code nor /proc tells the student where the project is.

``zygote`` imports NumPy and SymPy once, then forks one sandbox per student,
each in a cgroup of its own where the system has them (cgroups.py); what
happens in that fork is init.py's.
"""

import itertools
import json
import os
import select
import signal
import socket
import struct
import sys
import time
from types import SimpleNamespace

NEUTRAL = "/attn-grade"  # the folder our files seem to come from, to code in the sandbox
TITLE = "attn-grade-sandbox"  # the command line of the zygote and of every process it forks
_MADE = itertools.count(1)  # numbers the sandboxes (and their cgroups' folders)
SIBLINGS = ("files", "cgroups", "jail", "flat", "landlock", "confine", "worker", "init", "places", "scratch")


def zygote(ctrl_fd, m):
    """Pre-import the heavy libraries once, then fork a student's sandbox per request.

    Requests arrive on a Unix socket with the sandbox's control socket attached
    (SCM_RIGHTS): {"op": "spawn", "sandbox": {limits}} answers {"pid": n,
    "cgroup": folder or null} (whose files to take, the sandbox hears from the
    grading process itself); {"op": "who"} answers {"zygote": our pid}.
    Sandboxes that have ended are reaped (and what was made for them removed,
    places.py) as they end; nobody asks for their status (a worker's own
    status comes from its sandbox's init).

    ``ctrl_fd`` is the one connection of the grading process that started us,
    and we end when it hangs up or ends; or, with ATTN_ZYGOTE_IDLE set (the
    resident zygote, resident.py), a listening socket: we serve every
    connection of our own user, end the sandboxes of one that hangs up, and end
    after that many seconds with no connection (or at {"op": "stop"}). Every
    sandbox's cgroup is removed when we end.
    """
    import numpy  # noqa: F401 - imported once here, shared by every fork

    # SIGTERM (the grading process's death signal, or ``kill``) ends the serving loops below, and
    # the clean-up then runs whole. A handler that raised SystemExit could land in the clean-up's
    # first steps, or before the tree of cgroups had an owner to remove it, and leave it behind.
    ended = []
    signal.signal(signal.SIGTERM, lambda *_: ended.append(True))
    idle = float(os.environ.get("ATTN_ZYGOTE_IDLE") or 0)
    if idle:  # started by posix_spawn, we hold what the command held open (a watch's inotify, pipes)
        m.jail.close_fds(keep={0, 1, 2, ctrl_fd})
    # "0": the parent knows no file needs SymPy. A resident zygote has it for later commands, but when
    # the command that starts it needs none, it loads it once it has served that command (``later``).
    later = idle and os.environ.get("ATTN_ZYGOTE_SYMPY") == "0"
    sympy = _sympy() if (idle and not later) or (not idle and os.environ.get("ATTN_ZYGOTE_SYMPY", "1") != "0") \
        else None
    _warm_up(numpy, sympy)
    tree, why = m.cgroups.Tree.open()
    # With namespaces a sandbox has a private root; without, a scratch folder in a run folder
    # of ours (flat.py), and Landlock where the kernel has it.
    run = None if m.jail.can_confine() else m.flat.RunFolder(m.scratch.remove)
    # Orphans of a sandbox (its init, when the outer process is killed first) become ours to reap:
    # a zombie still counts as a member of its cgroup, which cannot be removed before it is reaped.
    m.confine.become_subreaper()
    if not idle:  # the grading process that started us was killed (kill -9): so are we, once the cgroups are gone
        m.confine.die_with_parent(signal.SIGTERM)
    sock = socket.socket(fileno=ctrl_fd)
    places = m.places.Places(tree, why, run)
    try:
        if idle:  # where a student's code could reach our socket, serve no sandbox (see confined)
            _serve(sock, idle, places, m, confined(m, run), ended, later)
        else:
            _serve_one(sock, places, m, ended)
    finally:
        places.close()


def confined(m, run) -> bool:
    """Whether a sandbox's code cannot reach a resident zygote's socket nor signal it: with
    namespaces (a private root), or without them where Landlock scopes signals (ABI 6) and
    seccomp refuses new sockets (confine.py)."""
    return run is None or (m.landlock.abi() >= 6 and m.confine.has_seccomp())


def _serve_one(conn, places, m, ended):
    """Serve the grading process that started us, and the connections it hands us ({"op":
    "adopt"} with one socket attached: a batch's job processes, forked from it, each take one),
    until all have hung up (or we are ``ended``). One that hangs up takes its sandboxes with it."""
    conns = [conn]
    while conns and not ended:
        for c in select.select(conns, [], [], m.places.TIDY)[0]:
            if _answer(c, places, m, conns, True, conns if c is conn else None) is None:
                _hung_up(c, conns, places, m)
        places.tidy()


def _hung_up(conn, conns, places, m):
    """``conn`` hung up: it is served no more, and its sandboxes end with it."""
    conns.remove(conn)
    conn.close()
    for pid in places.of(conn):
        m.places.kill(pid)
        places.orphan(pid)


def _sympy():
    try:
        import sympy
    except ImportError:
        return None
    return sympy


def _load_sympy() -> bool:
    """Import SymPy now (a zygote started without it) and warm it up; whether it is there."""
    sympy = _sympy()
    if sympy is not None:
        import numpy

        _warm_up(numpy, sympy)
    return sympy is not None


def _serve(listener, idle, places, m, confined, ended, later=False):
    """Serve every connection on ``listener`` (ours, by its owner's uid only) until ``idle``
    seconds pass with none open and no sandbox left, or a connection asks us to stop.
    Not ``confined`` (no namespaces here), every spawn is refused: each command then starts
    a zygote of its own. ``later``: load SymPy at the first moment nothing is asked of us."""
    conns, quiet = [], time.monotonic()
    while not ended:
        ready = select.select([listener, *conns], [], [], m.places.TIDY)[0]
        places.tidy()
        if later and not ready:
            later = False
            _load_sympy()
        if listener in ready:
            try:
                conn, _ = listener.accept()
            except OSError:
                conn = None
            if conn is not None:
                creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
                if struct.unpack("3i", creds)[1] == os.getuid():
                    conns.append(conn)
                else:
                    conn.close()
        for conn in [c for c in ready if c is not listener]:
            got = _answer(conn, places, m, [listener, *conns], confined)
            if got == "stop":
                return
            if got is None:
                _hung_up(conn, conns, places, m)
        if conns or places.boxes:
            quiet = time.monotonic()
        elif time.monotonic() - quiet > idle:
            return


def _answer(conn, places, m, close_in_child, confined, adopt=None):
    """Read and answer one request on ``conn``: None when it hung up, else the request's op.
    ``adopt``: the list of connections served, which an "adopt" request may add to (the starter's only).
    A request that cannot be served is refused, saying why; none ends the zygote. A spawn
    request names no student: the sandbox learns whose folder it is from the grading process,
    on its own socket, so that nothing of one student's ever passes through the zygote, whose
    memory every later sandbox inherits."""
    try:
        msg, fds, _, _ = socket.recv_fds(conn, 1 << 16, 8)
    except OSError:
        return None
    if not msg:
        return None
    op, reply = "", None
    try:
        req = json.loads(msg.decode("utf-8"))
        op = req.get("op", "") if isinstance(req, dict) else ""
        if op == "spawn" and confined and len(fds) == 1:
            n = next(_MADE)
            cgroup, place = places.make(n, req["sandbox"])
            pid = os.fork()
            if pid == 0:
                for s in close_in_child:
                    s.close()
                m.init.child(req["sandbox"], fds, m, cgroup, place)
            places.add(pid, conn, n, cgroup)
            reply = {"pid": pid, "cgroup": cgroup[0] and cgroup[0][0]}
        elif op == "spawn":
            reply = {"refused": "no sandbox here: the system gives this zygote no namespaces, nor Landlock "
                                "(ABI 6) and seccomp to keep its sandboxes from its socket" if not confined
                     else "a spawn request needs one socket"}
        elif op == "adopt" and adopt is not None and len(fds) == 1:
            adopt.append(socket.socket(fileno=os.dup(fds[0])))
            reply = {"adopted": len(adopt) - 1}
        elif op == "sympy":  # a zygote started without SymPy, for files that will need it
            reply = {"sympy": _load_sympy()}
        elif op in ("stop", "who"):  # who serves: the resident zygote's pid
            reply = {"zygote": os.getpid(), "confined": confined}
        else:
            reply = {"refused": "an unknown request"}
    except Exception as exc:  # noqa: BLE001 - a malformed request, a failed fork: refused, we go on
        reply = {"refused": f"the request could not be served ({type(exc).__name__})"}
    finally:
        for fd in fds:
            os.close(fd)
    try:
        conn.send(json.dumps(reply).encode())
    except OSError:
        return None
    return op


def _warm_up(np, sp):
    """Use NumPy and SymPy once, so that every fork finds their lazy imports and caches ready.

    Each exercise file gets a fresh fork (sandbox.py, Sandbox); without
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
    os.chdir("/")  # a resident zygote is started from the learner's folder: hold none of it
    # The folders a sandbox's private root is made of must be reachable by its user, whatever
    # umask we were started with (run_autograder's is 077); what must be private is made so.
    os.umask(0o022)
    del args  # a frame's locals are readable from the sandbox: no host path may stay in them
    sys.argv = sys.orig_argv = [TITLE]
    m.confine.hide_command_line(TITLE)
    zygote(fd, m)


if __name__ == "__main__":
    main()
