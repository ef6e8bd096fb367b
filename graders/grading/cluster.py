"""Grade a class on Dask distributed (``attn-grade grade --cluster ADDRESS``) instead of the pool.

``ADDRESS`` is ``local:N`` (a LocalCluster of N single-threaded worker processes
here) or a running scheduler's ``tcp://host:port``. No shared file system is
assumed: the coordinator (this process) sends each student's files as bytes,
as the sandbox would take them (``image``: sandbox/files.py's ``read_folder``
and its limits; a file it would leave out travels as what it is, never as its
bytes), and gets back what batch.py's ``grade_student`` returns. A worker lays
the files out in a private folder like the jail root, grades them there and
forgets them; the coordinator alone writes OUT, through the batch's ``done``.
A worker grades in a job process of its own (``in_job``), as the pool does, so
that the grader's time limits on student answers hold there too.

Every worker says what it is (``worker_facts``: this package's source digest,
the library versions grades depend on, and a probe of its sandbox) before it
grades anybody, and checks each task against the coordinator's own facts: a
worker whose versions differ is refused, naming the difference, and so is one
that isolates students less than the coordinator does, unless
``--allow-unisolated`` (then its results.json say what held there). A worker
that dies while grading costs no grade: Dask grades its students elsewhere; a
student whose grading kills its job process twice, or ``allowed-failures + 1``
workers (2 in a ``local:N`` cluster, as in the pool), gets "grading crashed".
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from ..sandbox.inside.files import MAX_FILE_BYTES, python_files, read_folder
from . import sources
from .preflight import NoSandbox

LIBRARIES = ("numpy", "sympy", "hypothesis", "python")
ALLOWED_FAILURES = 1  # a local cluster's: a student whose grading kills 2 workers gets "grading crashed"


class ClusterError(NoSandbox):
    """The cluster cannot grade as asked: Dask missing, no scheduler, or a worker refused."""


# ------------------------------------------------------------------ a student's files, as bytes
def image(folder: str, root: str, first) -> tuple:
    """(the folder relative to the jail root, its entries): what the sandbox and the grader can see
    of it. Entries are (name, kind, data): "file" with the bytes the sandbox takes; "size" for a
    regular file it leaves out (over a limit), as its size only; "link" and "other" for what is
    no regular file (a symbolic link, a folder), which it never reads."""
    rel = os.path.relpath(folder, root)
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        raise ValueError(f"{folder} is not inside the jail root {root}")
    taken, _, _ = read_folder(folder, folder, tuple(first))
    listed, _ = python_files(folder)  # past MAX_ENTRIES entries, its note is not made again there
    names = [n for n in first if os.path.basename(n) == n] + sorted(listed)
    found = []
    for name in dict.fromkeys(names):
        if name in taken:
            found.append((name, "file", taken[name]))
            continue
        try:
            info = os.lstat(os.path.join(folder, name))
        except OSError:
            continue
        kind = "link" if os.path.islink(os.path.join(folder, name)) else \
            "size" if os.path.isfile(os.path.join(folder, name)) else "other"
        found.append((name, kind, min(info.st_size, MAX_FILE_BYTES + 1) if kind == "size" else None))
    return rel, found


def lay_out(root: str, rel: str, entries) -> str:
    """Write ``image``'s entries under root/rel; return that folder."""
    folder = os.path.join(root, rel)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    for name, kind, data in entries:
        path = os.path.join(folder, name)
        if kind == "file":
            with open(path, "wb") as f:
                f.write(data)
        elif kind == "size":  # never read: a sparse file of the size that keeps it out
            with open(path, "wb") as f:
                f.truncate(data)
        elif kind == "link":
            os.symlink("/nonexistent/attn-grade", path)
        else:
            os.mkdir(path)
    return folder


# ------------------------------------------------------------------ on a worker
def versions() -> dict:
    """This package's source digest and the library versions: what every worker must share."""
    return {"attn-grade": sources.files_digest()[:16], **sources.versions()}


@lru_cache(maxsize=None)
def worker_facts(memory_mb: int = 1024) -> dict:
    """What grades depend on here: {"versions": {...}, "protections", "isolated", "missing"} of a
    sandbox probed on an empty folder, or "failed": why none could start."""
    from ..sandbox.handle import probe
    from ..sandbox.zygote import Limits, SandboxFailed

    try:
        found = versions()
    except Exception as exc:  # noqa: BLE001 - said, not raised: Dask cannot carry every exception back
        return {"versions": None, "failed": f"it cannot tell its versions ({type(exc).__name__}: {exc})"}
    try:
        report = probe(Limits(memory_mb=memory_mb))
    except SandboxFailed as exc:
        return {"versions": found, "failed": str(exc)}
    return {"versions": found, "protections": dict(report.protections), "isolated": report.isolated,
            "missing": list(report.missing)}


def refusal(where: str, facts: dict, expect: dict) -> str:
    """Why the coordinator (its ``expect``) cannot take grades from this worker, or ""."""
    if facts["versions"] is None:
        return f"worker {where}: {facts['failed']}"
    mine, theirs = expect["versions"], facts["versions"]
    for name in ("attn-grade", *LIBRARIES):
        if theirs.get(name) != mine.get(name):
            what = "this package's source digest" if name == "attn-grade" else name
            return (f"worker {where} has {what} {theirs.get(name)}, this machine {mine.get(name)}; grades depend "
                    f"on it (install the same versions on every worker)")
    if "failed" in facts:
        return f"worker {where}: {facts['failed']}"
    ours = expect["isolation"]["protections"]
    weaker = [k for k, v in ours.items() if not isinstance(v, str) and facts["protections"].get(k, 0) < v]
    if (weaker or (expect["isolation"]["isolated"] and not facts["isolated"])) and not expect["allow_unisolated"]:
        return (f"worker {where} isolates students less than this machine ({', '.join(weaker) or 'isolation'} "
                f"missing there: {'; '.join(facts['missing']) or 'see its sandbox'}); grade where the workers allow "
                f"what this machine allows (README, 'Grading on several machines'), or pass --allow-unisolated")
    return ""


def grade_remote(grade, task, rel: str, entries, expect: dict):
    """On a worker: ("refused", why) or ("graded", ``grade(task)``: batch.py's grade_student's (name,
    results.json text, facts))."""
    import warnings

    from distributed import get_worker
    from hypothesis.errors import HypothesisDeprecationWarning

    # Dask's own threads draw from the random module while a check draws its examples: Hypothesis
    # notices the module's state moving and warns, though no check uses it (the results are the pool's)
    warnings.filterwarnings("ignore", "Do not use the `random` module", HypothesisDeprecationWarning)

    facts = worker_facts(task.opts.memory_mb)
    why = refusal(get_worker().address, facts, expect)
    if why:
        return "refused", why
    if facts["protections"] != expect["isolation"]["protections"]:  # allowed: results.json says what held here
        isolated = facts["isolated"]
        task = replace(task, isolation={"protections": facts["protections"], "isolated": isolated,
                                        "allowed_unisolated": bool(expect["allow_unisolated"] and not isolated)})
    with tempfile.TemporaryDirectory(prefix="attn-grade-cluster-") as root:
        folder = lay_out(root, rel, entries)
        answer = in_job(grade, replace(task, folder=folder, root=root))
    return answer or ("died", None)


_job, _job_lock = None, threading.Lock()  # this Dask worker's job process (``in_job``), made at first use


def in_job(grade, task):
    """("graded", ``grade(task)``) or ("failed", the grader's exception in words), from this Dask
    worker's job process; None if that process died twice.

    Dask runs a task in a thread, and the grader's own time limits on a student's answers
    (kit/equality.py's time_limit: SIGALRM) hold only in a process's main thread: in a Dask
    thread, an answer such as 2**(d_k**1000) was evaluated without a bound, until the worker
    ran out of memory. A fork made from the task's thread has that thread as its main one. The
    job process is kept from student to student, as the pool's are, so what it has recorded
    stays warm; one that dies is made again and the student graded once more, and a second death
    is the pool's "grading crashed"."""
    global _job
    with _job_lock:  # a worker of several threads (not the advice) grades one student at a time
        for _ in range(2):
            if _job is None:
                _job = Job()
            answer = _job.ask(grade, task)
            if answer is not None:
                return answer
            _job.end()
            _job = None
    return None


class Job:
    """A forked process that grades what it is sent, one at a time, over two pipes: pickled
    (function, argument) in, pickled result out, each with its length first. (Dask's worker
    processes are daemonic, and multiprocessing lets those have no children of their own.)"""

    def __init__(self):
        (req_r, req_w), (res_r, res_w) = os.pipe(), os.pipe()
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:
            code = 70
            try:
                os.close(req_w), os.close(res_r)
                from ..sandbox.inside.confine import die_with_parent

                die_with_parent(parent=parent)  # the job ends with the Dask worker that forked it
                with os.fdopen(req_r, "rb") as requests, os.fdopen(res_w, "wb") as answers:
                    while (blob := _read_framed(requests)) is not None:
                        fn, arg = pickle.loads(blob)
                        try:
                            answer = ("graded", fn(arg))
                        except Exception as exc:  # noqa: BLE001 - the grader's own failure, said as the pool says it
                            answer = ("failed", f"{type(exc).__name__}: {exc}")
                        _write_framed(answers, pickle.dumps(answer))
                code = 0
            finally:
                os._exit(code)
        os.close(req_r), os.close(res_w)
        self.requests, self.answers = os.fdopen(req_w, "wb"), os.fdopen(res_r, "rb")

    def ask(self, fn, arg):
        """("graded", ``fn(arg)``) or ("failed", why) from the job process, or None if it ended first."""
        try:
            _write_framed(self.requests, pickle.dumps((fn, arg)))
            blob = _read_framed(self.answers)
        except OSError:
            return None
        return None if blob is None else pickle.loads(blob)

    def end(self):
        for f in (self.requests, self.answers):
            try:
                f.close()
            except OSError:
                pass
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def _write_framed(f, blob: bytes) -> None:
    f.write(struct.pack(">Q", len(blob)) + blob)
    f.flush()


def _read_framed(f):
    head = f.read(8)
    if len(head) < 8:
        return None
    size = struct.unpack(">Q", head)[0]
    blob = f.read(size)
    return blob if len(blob) == size else None


# ------------------------------------------------------------------ on the coordinator
class Batch(NamedTuple):
    """What batch.py lends the cluster (it imports this module, so it passes them in)."""

    grade_student: Callable  # Task -> (name, results.json text, facts)
    crashed: Callable  # (Task, why) -> the same, every exercise at zero
    died: Callable  # times -> why, for a student whose grading killed its process that often
    exercise_files: Callable  # exercises -> the file names the sandbox takes first

CONNECT_SECONDS, WORKERS_SECONDS = 10, 60


def grade_all(tasks, opts, isolation: dict, done, batch: Batch) -> None:
    """Grade ``tasks`` on the cluster ``opts.cluster``, calling ``done(name, text, facts)`` for each."""
    if not tasks:
        return
    client, cluster = connect(opts.cluster)
    futures = set()  # those not yet handed to ``done``
    try:
        expect = {"versions": versions(), "isolation": isolation,
                  "allow_unisolated": opts.allow_unisolated}
        try:
            said = client.run(worker_facts, opts.memory_mb)  # every worker, before anybody is graded
        except Exception as exc:  # noqa: BLE001 - named, without Dask's traceback
            raise ClusterError(f"a worker could not say what it is ({type(exc).__name__}: {exc})") from None
        for where, facts in sorted(said.items()):
            why = refusal(where, facts, expect)
            if why:
                raise ClusterError(why + "; nobody was graded")
        _grade(client, tasks, expect, done, futures, batch)
    finally:
        client.cancel(list(futures))
        client.close()
        if cluster is not None:
            cluster.close()


def connect(address: str):
    """(client, the local cluster or None) for ``local:N`` or a scheduler's address."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterError(f"--cluster needs Dask distributed, which this Python does not have ({exc.name} is "
                           f"missing): pip install 'attn-exercises[cluster]'") from None
    if address.startswith("local:"):
        import logging

        with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                              "distributed.scheduler.worker-saturation": 1.0}):
            cluster = LocalCluster(n_workers=int(address[6:]), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
        return Client(cluster), cluster
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({exc}); is 'dask scheduler' running "
                           f"there, and its port open to this machine?") from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:
        client.close()
        raise ClusterError(f"no worker joined the Dask scheduler at {address} within {WORKERS_SECONDS} s; start "
                           f"some with 'dask worker {address} --nthreads 1'") from None
    return client, None


def _grade(client, tasks, expect, done, futures, batch) -> None:
    """Keep every worker thread busy with one student, no more (a worker that dies then takes no
    waiting student's chances with it); hand each result to ``done`` as it comes."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker, as_completed

    waiting, running, arrived = list(reversed(tasks)), {}, as_completed()

    def submit():
        threads = max(1, sum(client.nthreads().values()))  # workers may join or leave between results
        while waiting and len(running) < threads:
            task = waiting.pop()
            rel, entries = image(task.folder, task.root, batch.exercise_files(task.exercises))
            future = client.submit(grade_remote, batch.grade_student, task, rel, entries, expect, pure=False)
            running[future.key] = task
            futures.add(future)
            arrived.add(future)

    submit()
    for future in arrived:
        task = running.pop(future.key)
        futures.discard(future)  # released once handled: neither the workers nor this process keep it
        try:
            kind, outcome = future.result()
        except KilledWorker as exc:
            outcome = batch.crashed(task, batch.died(exc.allowed_failures + 1))
        except CancelledError:
            raise ClusterError("the Dask scheduler cancelled the grading (was it restarted?)") from None
        except Exception as exc:  # noqa: BLE001 - not the student's doing; the batch goes on, as in the pool
            outcome = batch.crashed(task, f"the grader failed ({type(exc).__name__}: {exc})")
        else:
            if kind == "refused":
                raise ClusterError(outcome + "; the students graded so far are kept")
            if kind == "died":  # the job process grading them died twice (in_job)
                outcome = batch.crashed(task, batch.died(2))
            elif kind == "failed":  # the grader raised, in the job process
                outcome = batch.crashed(task, f"the grader failed ({outcome})")
        done(*outcome)
        submit()
