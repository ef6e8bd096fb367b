"""Grade a class on Dask distributed (``attn-grade grade --cluster ADDRESS``) instead of the pool.

``ADDRESS`` is ``local:N`` (a LocalCluster of N single-threaded worker processes
here) or a running scheduler's ``tls://host:port``; who may connect, and how
(TLS with mutual certificates; plain ``tcp://`` only if the instructor says
``--insecure-cluster``), is tls.py's. No shared file system is
assumed: the coordinator (this process) sends each student's files as bytes,
as the sandbox would take them (``image``: sandbox/files.py's ``read_folder``
and its limits; a file it would leave out travels as what it is, never as its
bytes), and gets back what batch.py's ``grade_student`` returns. A worker lays
the files out in a private folder like the jail root, grades them there and
forgets them; the coordinator alone writes OUT, through the batch's ``done``.
A worker (remote.py) grades in a job process of its own (``in_job``), as the pool does, so
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
from collections.abc import Callable
from typing import NamedTuple

from ..sandbox.inside.files import MAX_FILE_BYTES, python_files, read_folder
from . import tls
from .preflight import NoSandbox
from .remote import grade_remote, refusal, versions, worker_facts

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
    client, cluster = connect(opts)
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


def connect(opts):
    """(client, the local cluster or None) for ``opts.cluster``: local:N, or a scheduler's address,
    reached as tls.py says (TLS with the cluster's certificate; plain tcp:// only if insecure)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterError(f"--cluster needs Dask distributed, which this Python does not have ({exc.name} is "
                           f"missing): pip install 'attn-exercises[cluster]'") from None
    address = opts.cluster
    why = tls.refusal(address, opts.tls, opts.insecure_cluster)
    if why:
        raise ClusterError(why)
    try:
        security = tls.security(address, opts.tls)
    except tls.UnsafeCluster as exc:
        raise ClusterError(str(exc)) from None
    if address.startswith("local:"):
        import logging

        # no status pages: Dask's HTTP servers answer anyone, without TLS (the workers get this config)
        with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                              "distributed.scheduler.worker-saturation": 1.0,
                              "distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}):
            cluster = LocalCluster(n_workers=int(address[6:]), threads_per_worker=1, processes=True,
                                   host="127.0.0.1", protocol="tls://", security=security,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
        return Client(cluster, security=security), cluster
    try:
        client = Client(address, timeout=CONNECT_SECONDS, security=security)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({exc}); is 'dask scheduler' running "
                           f"there, its port open to this machine, and (for tls://) are its certificate and "
                           f"yours the same cluster's?") from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:
        client.close()
        raise ClusterError(f"no worker joined the Dask scheduler at {address} within {WORKERS_SECONDS} s; start "
                           f"some with 'dask worker {address} --nthreads 1' (docs/instructors/cluster.md)") from None
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
