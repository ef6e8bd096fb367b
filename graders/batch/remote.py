"""What a Dask worker does for ``--cluster`` (cluster.py is the coordinator's side).

Before it grades anybody a worker says what it is (``worker_facts``: this
package's source digest, the library versions grades depend on, and a probe of
its sandbox), and it checks each task against the coordinator's own facts
(``refusal``). It lays a student's files out in a private folder like the jail
root (``lay_out``), grades them there in a job process of its own (``in_job``,
``Job``), as the pool does, so that the grader's time limits on student answers
hold there too, and forgets them.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import tempfile
import threading
from dataclasses import replace
from functools import lru_cache

from ..grading import sources

LIBRARIES = ("numpy", "sympy", "hypothesis", "python")


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
    from ..sandbox.sandbox import probe
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
                f"what this machine allows (docs/instructors/cluster.md), or pass --allow-unisolated")
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
