"""The worker factory: the processes around a student's code that never run it.

Started by zygote.py as ``python -I -S -c BOOT factory.py zygote CTRL_FD
LIBDIR...``: standard library only, plus its siblings (files, cgroups, jail,
confine, worker) loaded by path, so the grading package, the graders and the
reference solutions are never imported here. BOOT compiles this file, and it
compiles its siblings, under neutral names (/attn-grade/NAME.py), and the
zygote overwrites its own command line, so neither a traceback, a module's
``__file__``, a frame's code nor /proc tells the student where the project is.

* ``zygote``: imports NumPy and SymPy once, then forks one sandbox per student,
  each in a cgroup of its own where the system has them (cgroups.py);
* ``child``: in that fork, joins the cgroup, reads the student's files
  (files.py), builds the sandbox (jail.enter) and becomes its init (``init``),
  which forks a fresh process per exercise file on the parent's request, after
  jail.reset;
* ``student``: that process; it confines itself (confine.become_student) and
  serves the parent's calls (worker.serve).
"""

import json
import os
import signal
import sys
import traceback
from types import SimpleNamespace

NEUTRAL = "/attn-grade"  # the folder our files seem to come from, to code in the sandbox
TITLE = "attn-grade-sandbox"  # the command line of the zygote and of every process it forks
SIBLINGS = ("files", "cgroups", "jail", "confine", "worker")


def child(req, fds, m, cgroup):
    """In a fresh fork of the zygote: build the student's sandbox, then be its init. Never returns.

    The init answers the parent on the control socket ``fds[0]``:
    {"op": "fork"} with the four pipe ends of a new worker attached starts a
    fresh process for the next exercise file (after ``jail.reset`` where the
    sandbox has namespaces; without them a sandbox serves one process only and
    answers {"ok": false}); {"op": "status"} answers the exit code of the last
    one, once it has ended. The parent ending the conversation ends the sandbox.
    """
    code = 0
    try:
        m.confine.die_with_parent()  # a zygote that is killed takes its workers with it
        measures, missing = _join(m, cgroup)  # first: all that follows counts
        m.confine.protect_from_oom_killer()  # this process and the init; student processes undo it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        m.jail.close_fds(keep={0, 1, 2, fds[0]})
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        cfg = dict(req.pop("sandbox"), libraries=[p for p in sys.path if os.path.isdir(p)], cgroup=bool(measures))
        # taken out of the request: student code can read the variables of the frames that call it
        files, rel, notes = m.files.read_folder(req.pop("folder"), cfg.pop("scratch"), req.pop("first", ()))
        box = list(m.jail.enter(cfg, files))
        del cfg["libraries"]  # bound where they were; their paths need not stay in a frame
        box[2], box[3] = measures + box[2], missing + box[3]
        init(fds[0], cfg, files, rel, notes, box, m)
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def _join(m, cgroup):
    """Join this sandbox's cgroup; (measures, missing) in words. ``cgroup``: (folders or None,
    what bounds the sandbox, or why nothing does)."""
    dirs, words = cgroup
    if dirs:
        try:
            m.cgroups.join(dirs)
            return [words], []
        except OSError as exc:
            words = f"the sandbox could not join its cgroup ({exc.strerror or exc})"
    return [], [f"no cgroup: {words}; memory is bounded per process only (which does not count shared "
                f"memory) and processes by the sandbox user's limit"]


def init(ctrl_fd, cfg, files, rel, notes, box, m):
    """Serve the parent's fork and status requests until it hangs up (see ``child``).

    {"op": "fork"} answers {"ok": true, "pid": n} (or {"ok": false}). When that
    process ends the init says so unasked, {"ended": exit code, "pid": n}; asked
    ({"op": "status"}) it says so too, killing a process that has only hung up."""
    import select
    import socket

    scratch, namespaced = box[0], box[1]
    sock = socket.socket(fileno=ctrl_fd)
    current, started = None, 0  # (pid, pidfd) of the process serving now
    taken = sorted({os.path.basename(p) for p in files})
    while True:
        ready, _, _ = select.select([sock, *(current[1:] if current else ())], [], [])
        if sock not in ready:  # the process ended
            current = _report_end(sock, current)
            continue
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 12, 4)
        except OSError:
            return
        if not msg:
            return
        op = json.loads(msg.decode("utf-8")).get("op")
        if op == "status":
            if current:
                current = _report_end(sock, current)
        elif op == "fork" and len(fds) == 4 and (started == 0 or namespaced):
            if current:
                os.kill(current[0], signal.SIGKILL)  # the next file's process: the last one is done
                current = _report_end(sock, current)
            if started:
                m.jail.reset(scratch, files)
            pid = os.fork()
            if pid == 0:
                sock.close()
                student(fds, cfg, rel, {"taken": taken, "notes": notes}, box, m)
            for fd in fds:
                os.close(fd)
            current, started = (pid, os.pidfd_open(pid)), started + 1
            sock.send(json.dumps({"ok": True, "pid": pid}).encode())
        else:
            for fd in fds:
                os.close(fd)
            sock.send(b'{"ok": false}')


def _report_end(sock, current):
    """Reap the process serving now (killing it after 2 s if it lives on) and tell the parent."""
    pid, pidfd = current
    sock.send(json.dumps({"ended": _wait(pid), "pid": pid}).encode())
    os.close(pidfd)
    return None


def student(fds, cfg, rel, folder_facts, box, m):
    """A fresh process of the sandbox for one exercise file: confine, then serve. Never returns."""
    code = 0
    try:
        req_fd, res_fd, out_fd, err_fd = fds
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        m.jail.close_fds(keep={0, 1, 2, req_fd, res_fd})
        _, namespaced, measures, missing = box
        measures, missing = m.confine.become_student(cfg, namespaced, measures, missing)
        # after the credentials changed (which clears it): without namespaces nothing else
        # ends this process when the sandbox is killed
        m.confine.die_with_parent()
        # relative to the scratch folder, our working directory: its ancestors may not be
        # searchable by the sandbox user, but the working directory itself always is
        folder = os.path.normpath(rel)
        sys.meta_path.append(m.worker.StudentFinder(folder))  # a student's file may import a sibling
        m.worker.serve(folder, req_fd, res_fd, {"measures": measures, "missing": missing, **folder_facts})
    except BaseException:
        traceback.print_exc()
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


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

    try:
        import sympy  # noqa: F401
    except ImportError:
        sympy = None
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
                    child(req, fds, m, cgroup)
                for fd in fds:
                    os.close(fd)
                if cgroup[0]:
                    boxes[pid] = cgroup[0]
                sock.send(json.dumps({"pid": pid, "cgroup": cgroup[0] and cgroup[0][0]}).encode())
    finally:
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


def _wait(pid, seconds=2.0):
    """The exit code of a child that is ending (negative: killed by that signal); None if
    it is not our child. One still running after ``seconds`` is killed."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = float("inf")
        else:
            time.sleep(0.005)


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
