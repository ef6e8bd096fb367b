"""Behind bounded.py: the clean helper process, and the runners it forks that run jobs.

The helper is a fork of the grading process (bounded.Helper.start). It drops
the files and signal handlers it inherited, warms up once, and then only
forks: each request on its socket, with a socket attached, becomes a runner
on that socket, and the helper answers with the runner's pid and a pidfd (so
the parent can kill it without a pid race). When a runner ends, the helper
writes its exit status to the runner's socket: the parent reads it in place
of the answer it was waiting for, and so learns at once which limit ended it.

A runner has an address-space limit for its life and a CPU-time limit per
job. It reads jobs (module, function, arguments, CPU seconds; pickled by the
grader), runs each and writes its answer in JSON, until its socket hangs up.
One that runs out of memory says so and ends; the next job gets a new runner,
forked afresh from the clean helper.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import resource
import select
import signal
import socket

from ..sandbox.inside.confine import die_with_parent
from ..sandbox.inside.jail import close_fds

MAX_REQUEST = 1 << 17  # bytes of one pickled job: a 20,000-character answer and the reference
MAX_ANSWER = 1 << 16


def become_helper(sock, warm):
    """Shed what the grading process holds, warm up, and serve until the parent hangs up."""
    die_with_parent()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    # Pipes to students' sandboxes among them: held open here, their ends would never hang up.
    close_fds(keep={0, 1, 2, sock.fileno()})
    for sig in (signal.SIGTERM, signal.SIGALRM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the grading process's to act on; it ends us
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for module, name in warm:
        try:
            getattr(importlib.import_module(module), name)()
        except Exception:  # noqa: BLE001 - a cold helper is slower, not wrong
            pass
    _serve(sock)


def _serve(sock):
    runners = {}  # pidfd -> (pid, the runner's socket)
    while True:
        ready, _, _ = select.select([sock, *runners], [], [])
        for fd in ready:
            if fd is sock:
                if not _fork_runner(sock, runners):
                    return
            else:
                _report_end(fd, *runners.pop(fd))


def _fork_runner(sock, runners) -> bool:
    try:
        msg, fds, _, _ = socket.recv_fds(sock, 256, 1)
    except OSError:
        return False
    if not msg:
        return False
    try:
        memory_mb = int(json.loads(msg.decode())["memory_mb"])
    except (ValueError, KeyError, TypeError):
        fds, memory_mb = fds or [], None
    if len(fds) != 1 or memory_mb is None:
        for fd in fds:
            os.close(fd)
        sock.send(b"")
        return True
    pid = os.fork()
    if pid == 0:
        sock.close()
        for other, (_, runner_fd) in runners.items():  # the other runners' ends are not its own
            os.close(other)
            os.close(runner_fd)
        _work(fds[0], memory_mb)
    pidfd = os.pidfd_open(pid)
    runners[pidfd] = (pid, fds[0])
    socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], [pidfd])
    return True


def _report_end(pidfd, pid, runner_fd):
    """A runner ended: reap it and tell the parent its status (unread if it had left in peace)."""
    _, status = os.waitpid(pid, 0)
    try:
        os.write(runner_fd, json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode())
    except OSError:
        pass
    os.close(runner_fd)
    os.close(pidfd)


def _work(fd, memory_mb):
    """A runner: its memory limit, then one job after another until the parent hangs up."""
    try:
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (size + (memory_mb << 20),) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        while True:
            blob = os.read(fd, MAX_REQUEST + 1)
            if not blob:
                break
            data, done = _one_job(blob)
            os.write(fd, data)
            if done:
                break
    except BaseException:  # noqa: BLE001 - the parent reads the exit status instead
        pass
    finally:
        os._exit(0)


def _one_job(blob):
    """(the JSON answer, whether this runner must end): a job that ran out of memory ends it."""
    module, name, args, seconds = pickle.loads(blob)
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime + max(seconds, 1) + 1)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard < 0 else min(cpu, hard), hard))  # SIGXCPU ends us
    try:
        answer = {"answer": getattr(importlib.import_module(module), name)(*args)}
    except MemoryError:
        return b'{"why": "memory"}', True
    except Exception as exc:  # noqa: BLE001 - a bug in the job: the grader's developers need its name
        return json.dumps({"why": "crashed", "detail": f"{type(exc).__name__}: {exc}"[:500]}).encode(), True
    data = json.dumps(answer).encode("utf-8")
    return (data, False) if len(data) <= MAX_ANSWER else (b'{"why": "crashed"}', True)
