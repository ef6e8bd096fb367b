"""The worker factory: the processes around a student's code that never run it.

Started by zygote.py as ``python -I -S factory.py zygote CTRL_FD
LIBDIR...``: standard library only, plus its siblings jail.py and worker.py
loaded by path, so the grading package, the graders and the reference
solutions are never imported here.

* ``zygote``: imports NumPy and SymPy once, then forks one sandbox per student;
* ``child``: in that fork, reads the student's files, builds the sandbox
  (jail.enter) and becomes its init (``init``), which forks a fresh process
  per exercise file on the parent's request, after jail.reset;
* ``student``: that process; it drops its privileges (jail.become_student)
  and serves the parent's calls (worker.serve).
"""

import importlib.util
import json
import os
import signal
import sys
import traceback

MAX_FILES, MAX_FILE_BYTES = 64, 1 << 20


def read_folder(folder, scratch):
    """The student's .py files (their folder), keyed by path relative to ``scratch``.

    Read before confinement, with the grader's rights, so only regular files
    are taken: a symbolic link (to /etc/shadow, to a solution) is skipped.
    """
    import stat

    rel = os.path.relpath(folder, scratch)
    files = {}
    if os.path.islink(folder):
        return files, rel
    for name in sorted(os.listdir(folder))[:1000]:
        if not name.endswith(".py") or len(files) >= MAX_FILES:
            continue
        try:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                files[os.path.normpath(os.path.join(rel, name))] = os.read(fd, MAX_FILE_BYTES)
        finally:
            os.close(fd)
    return files, rel


def child(req, fds, jail, worker):
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
        jail.die_with_parent()  # a zygote that is killed takes its workers with it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        jail.close_fds(keep={0, 1, 2, fds[0]})
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        cfg = dict(req["sandbox"], libraries=[p for p in sys.path if os.path.isdir(p)])
        files, rel = read_folder(req["folder"], cfg["scratch"])
        box = jail.enter(cfg, files)
        init(fds[0], cfg, files, rel, box, jail, worker)
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def init(ctrl_fd, cfg, files, rel, box, jail, worker):
    """Serve the parent's fork and status requests until it hangs up (see ``child``)."""
    import socket

    scratch, namespaced = box[0], box[1]
    sock = socket.socket(fileno=ctrl_fd)
    last, started = None, 0
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 12, 4)
        except OSError:
            return
        if not msg:
            return
        op = json.loads(msg.decode("utf-8")).get("op")
        if op == "fork" and len(fds) == 4 and (started == 0 or namespaced):
            if started:
                jail.reset(scratch, files)
            pid = os.fork()
            if pid == 0:
                sock.close()
                student(fds, cfg, rel, box, jail, worker)
            for fd in fds:
                os.close(fd)
            last, started = pid, started + 1
            sock.send(b'{"ok": true}')
        elif op == "status" and last is not None:
            sock.send(json.dumps({"status": _wait(last)}).encode())
        else:
            for fd in fds:
                os.close(fd)
            sock.send(b'{"ok": false}')


def student(fds, cfg, rel, box, jail, worker):
    """A fresh process of the sandbox for one exercise file: confine, then serve. Never returns."""
    code = 0
    try:
        req_fd, res_fd, out_fd, err_fd = fds
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        jail.close_fds(keep={0, 1, 2, req_fd, res_fd})
        _, namespaced, measures, missing = box
        measures, missing = jail.become_student(cfg, namespaced, measures, missing)
        # after the credentials changed (which clears it): without namespaces nothing else
        # ends this process when the sandbox is killed
        jail.die_with_parent()
        # relative to the scratch folder, our working directory: its ancestors may not be
        # searchable by the sandbox user, but the working directory itself always is
        folder = os.path.normpath(rel)
        sys.meta_path.append(worker.StudentFinder(folder))  # a student's file may import a sibling
        worker.serve(folder, req_fd, res_fd, {"measures": measures, "missing": missing})
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


def zygote(ctrl_fd):
    """Pre-import the heavy libraries once, then fork a student's sandbox per request.

    Requests arrive on a Unix socket with the sandbox's control socket attached
    (SCM_RIGHTS): {"op": "spawn", "folder": ..., "sandbox": {...}} answers
    {"pid": n}. Sandboxes that have ended are reaped at the next request; nobody
    asks for their status (a worker's own status comes from its sandbox's init).
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
    jail, worker = _sibling("jail"), _sibling("worker")
    jail.die_with_parent()  # the grading process that started us was killed (kill -9): so are we
    sock = socket.socket(fileno=ctrl_fd)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 8)
        except OSError:
            return
        if not msg:
            return
        req = json.loads(msg.decode("utf-8"))
        _reap()
        if req["op"] == "spawn":
            pid = os.fork()
            if pid == 0:
                sock.close()
                child(req, fds, jail, worker)
            for fd in fds:
                os.close(fd)
            sock.send(json.dumps({"pid": pid}).encode())


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
    """Reap the children that have ended, without waiting."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _sibling(name):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location("_attn_" + name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: findable, not hidden (hiding protects nothing)
    spec.loader.exec_module(module)
    return module


def main():
    # python -I -S factory.py zygote CTRL_FD LIBDIR...
    sys.path.extend(sys.argv[3:])  # the library folders (numpy, sympy); no .pth hooks run
    zygote(int(sys.argv[2]))


if __name__ == "__main__":
    main()
