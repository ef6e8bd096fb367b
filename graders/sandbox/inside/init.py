"""Inside one student's sandbox: its first process, its init, and each student process.

Loaded by factory.py by path; standard library only. The zygote forks
``child`` for a student:

* ``child`` joins the sandbox's cgroup, reads the student's files (files.py),
  builds the sandbox (jail.enter) and becomes its init (``init``), which forks
  a fresh process per exercise file on the parent's request, after jail.reset,
  tells the parent when each has ended, and keeps the scratch folder within its
  bounds (scratch.py), ending the sandbox, and saying why, when it is not;
* ``student`` is that process; it confines itself (confine.become_student)
  and serves the parent's calls (worker.serve).

``m`` is the namespace of the sibling modules factory.py loaded.
"""

import json
import os
import signal
import sys
import traceback


def child(limits, fds, m, cgroup, place):
    """In a fresh fork of the zygote: build the student's sandbox, then be its init. Never returns.

    The grading process first says, on the control socket ``fds[0]``, whose
    folder this is ({"folder", "first", "scratch"}); the zygote never hears
    it. ``place`` (flat.py) is where the sandbox goes when the system gives no
    namespaces. A sandbox that cannot be built says why on the same socket
    ({"failed": words}) before it ends: the failure is the grader's, not the
    student's. Then the init answers the parent on that socket:
    {"op": "fork"} with the four pipe ends of a new worker attached starts a
    fresh process for the next exercise file (after ``jail.reset`` where the
    sandbox has namespaces; without them a sandbox serves one process only and
    answers {"ok": false}); {"op": "status"} answers the exit code of the last
    one, once it has ended; {"op": "scratch"} whether its scratch folder is within its bounds
    (``init``). The parent ending the conversation ends the sandbox.
    """
    code, sock = 0, None
    try:
        import socket

        sock = socket.socket(fileno=fds[0])
        m.confine.die_with_parent()  # a zygote that is killed takes its workers with it
        measures, missing = _join(m, cgroup)  # first: all that follows counts
        m.confine.protect_from_oom_killer()  # this process and the init; student processes undo it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        m.jail.close_fds(keep={0, 1, 2, fds[0]})
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        cfg = dict(limits, libraries=[p for p in sys.path if os.path.isdir(p)], cgroup=bool(measures))
        # read here, not kept: student code can read the variables of the frames that call it
        files, rel, notes = m.files.read_folder(*_whose(sock))
        if place is None:
            box = m.jail.enter(cfg, files)
        else:
            box = m.flat.enter(place, files, cfg["libraries"], m)
        del cfg["libraries"]  # bound where they were; their paths need not stay in a frame
        box["measures"], box["missing"] = measures + box["measures"], missing + box["missing"]
        init(sock, cfg, files, rel, notes, box, m)
    except BaseException as exc:
        code = 70
        _say_failed(sock, "the sandbox could not start", exc)
    finally:
        os._exit(code)


def _whose(sock):
    """(folder, scratch root, first names) as the grading process sends them, within 30 s."""
    sock.settimeout(30.0)
    msg = json.loads(sock.recv(1 << 16).decode("utf-8"))
    sock.settimeout(None)
    return msg["folder"], msg["scratch"], msg.get("first", ())


def _say_failed(sock, what, exc):
    """Tell the parent, in words, why the sandbox (or a worker in it) could not start."""
    why = f"{exc.strerror or exc}" if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
    try:
        sock.send(json.dumps({"failed": f"{what}: {why}"[:500]}).encode())
    except (OSError, AttributeError):
        pass


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


def init(sock, cfg, files, rel, notes, box, m):
    """Serve the parent's fork, status and scratch requests until it hangs up (see ``child``).

    {"op": "fork"} answers {"ok": true, "pid": n} (or {"ok": false}). When that
    process ends the init says so unasked, {"ended": exit code, "pid": n}; asked
    ({"op": "status"}) it says so too, killing a process that has only hung up.
    While the sandbox lives its scratch folder is measured every scratch.TICK seconds
    (processes a student's process left behind may write too), and when asked
    ({"op": "scratch"}, after each answer), which answers {"scratch": null} while it is
    within its bounds: once one is reached the sandbox ends, saying so (``_stop``)."""
    import select
    import socket
    import time

    scratch, namespaced = box["scratch"], box["namespaced"]
    current, started = None, 0  # (pid, pidfd) of the process serving now
    taken = sorted({os.path.basename(p) for p in files})
    look = 0.0  # when to measure the scratch folder next (processes left behind may write too)
    while True:
        wait = max(0.0, look - time.monotonic())
        ready, _, _ = select.select([sock, *(current[1:] if current else ())], [], [], wait)
        if time.monotonic() >= look:
            began = time.monotonic()
            if _stop(sock, current, _reached(box, cfg, current, m, maps=True), m):
                return
            # a folder that is long to measure is measured less often: the init's share of a CPU stays small
            look = time.monotonic() + max(m.scratch.TICK, 10 * (time.monotonic() - began))
        if not ready:
            continue
        if sock not in ready:  # the process ended
            current = _report_end(sock, current)
            continue
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 12, 5)
        except OSError:
            return
        if not msg:
            return
        op = json.loads(msg.decode("utf-8")).get("op")
        if op == "status":
            if current:
                current = _report_end(sock, current)
        elif op == "scratch":
            if _stop(sock, current, _reached(box, cfg, current, m, maps=False), m):
                return
            sock.send(b'{"scratch": null}')
        elif op == "fork" and len(fds) in (4, 5) and (started == 0 or namespaced):
            if current:
                os.kill(current[0], signal.SIGKILL)  # the next file's process: the last one is done
                current = _report_end(sock, current)
            if started:
                m.jail.reset(scratch, files, m.jail.scratch_tmpfs(cfg))
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


def _reached(box, cfg, current, m, maps):
    """Which bound of the scratch folder its student processes reached (scratch.py), or None.
    A tmpfs counts their deleted files itself; on the host's disk they are looked for (``maps``:
    mapped ones too, at each look but not after each answer: that costs 0.2 ms a process)."""
    pids = m.scratch.family(current[0]) if current and not box["namespaced"] else ()
    try:
        return m.scratch.reached(box, cfg, pids, maps)
    except OSError:  # what the walk does not expect (it was changed under it): not measured, so ended
        return "closed"


def _stop(sock, current, over, m):
    """When a bound ``over`` was reached: kill the process serving now and all it started, and say
    so, and why, in one message that also answers a scratch request; True then (the init returns
    and the sandbox ends: in a PID namespace with all of it; without, the zygote kills what is
    left, as it does when any sandbox ends, and removes its folder)."""
    if not over:
        return False
    said = {"scratch": over, "over": over}
    if current:
        _kill_all(current[0], m.scratch.family)
        said.update(ended=_wait(current[0]), pid=current[0])
        os.close(current[1])
    try:
        sock.send(json.dumps(said).encode())
    except OSError:
        pass  # the parent has gone: the sandbox ends all the same
    return True


def _kill_all(pid, family):
    """Kill ``pid`` and the processes below it, all stopped first, so that none starts another
    meanwhile (one that would, when its parent is killed, becomes the zygote's to kill)."""
    stopped = []
    for _ in range(3):
        more = [p for p in family(pid) if p not in stopped]
        for p in more:
            _signal(p, signal.SIGSTOP)
        stopped += more
    for p in stopped:
        _signal(p, signal.SIGKILL)


def _signal(pid, sig):
    try:
        os.kill(pid, sig)
    except OSError:
        pass  # ended meanwhile


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
        req_fd, res_fd, out_fd, err_fd, *arena = fds  # arena: the parent's memory for arguments (arena.py)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        m.jail.close_fds(keep={0, 1, 2, req_fd, res_fd, *arena})
        try:  # before any of the student's code runs: a failure here is the grader's
            if arena and not m.worker.open_arena(arena[0]):
                raise OSError("the memory shared for arguments could not be mapped")
            report = m.confine.become_student(cfg, box, m.landlock)
            # after the credentials changed (which clears it): without namespaces nothing else
            # ends this process when the sandbox is killed
            m.confine.die_with_parent()
        except BaseException as exc:
            why = f"{exc.strerror or exc}" if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
            m.worker.send(res_fd, {"hello": False, "failed": f"the sandbox could not start: {why}"[:500]})
            raise
        # relative to the scratch folder, our working directory: its ancestors may not be
        # searchable by the sandbox user, but the working directory itself always is
        folder = os.path.normpath(rel)
        sys.meta_path.append(m.worker.StudentFinder(folder))  # a student's file may import a sibling
        m.worker.serve(folder, req_fd, res_fd, {**report, **folder_facts})
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
