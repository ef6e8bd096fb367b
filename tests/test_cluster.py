"""attn-grade grade --cluster: a class graded on Dask workers gets the pool's files, byte for byte.

A real scheduler and two workers, each a process of its own as on other machines (nothing shared but
the network: the students' files travel as bytes), grade a mixed class; one worker is killed while it
grades; a worker that pretends another NumPy is refused, by name. The student's folder as a worker
lays it out (cluster.py's ``image``) is what the sandbox and the grader see of the original.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from graders.batch import cluster, remote
from graders.batch.run import Options, run
from graders.sandbox.inside.files import MAX_FILE_BYTES, MAX_FILES, read_folder

from support.dask_cluster import cli as _cli, graded as _graded, needs_dask, scheduler  # noqa: F401 - a fixture
from support.dask_cluster import start_scheduler as _scheduler, start_worker as _worker, stop as _stop
from support.dask_cluster import tls_options as _tls_options, wait_for_workers as _wait_for_workers
from support.make_class import make_class  # tests/support, shared with bench/

STUDENTS = 3


# ------------------------------------------------------------------ a student's folder, as bytes
def test_a_folder_laid_out_on_a_worker_is_what_the_sandbox_takes_of_the_original(tmp_path):
    folder = tmp_path / "root" / "ann"
    folder.mkdir(parents=True)
    (folder / "softmax.py").write_text("def softmax(z, axis=-1):\n    return z\n")
    (folder / "attention.py").symlink_to("/etc/passwd")  # never followed: named as a link
    (folder / "multi_head.py").mkdir()  # not a file
    (folder / "saturation.py").write_bytes(b"#" * (MAX_FILE_BYTES + 10))  # over a limit: named, never sent
    for i in range(MAX_FILES + 5):  # more than the sandbox copies
        (folder / f"helper_{i:03d}.py").write_text(f"X = {i}\n")
    (folder / "notes.txt").write_text("not Python")
    first = ("softmax.py", "attention.py", "multi_head.py", "saturation.py", "hand_scores.py")
    rel, entries = cluster.image(str(folder), str(tmp_path / "root"), first)
    assert rel == "ann" and max(len(d) for _, k, d in entries if k == "file") < 100  # the large file's bytes stay
    copy = remote.lay_out(str(tmp_path / "worker"), rel, entries)
    assert read_folder(copy, copy, first) == read_folder(str(folder), str(folder), first)
    assert read_folder(str(folder), str(folder), first)[2], "no limit was hit: the test tests nothing"
    for name in first:  # what the grader itself looks at (engine.grade_file: a link, else a file or not)
        here, there = folder / name, Path(copy) / name
        assert there.is_symlink() == here.is_symlink() and (here.is_symlink() or there.is_file() == here.is_file())


# ------------------------------------------------------------------ a worker's job process
def _raises(arg):
    raise ValueError(f"no {arg}")


def _dies(arg):
    os._exit(9)


def test_a_job_says_what_the_grader_raised_as_the_pool_does():
    assert remote.in_job(_raises, "luck") == ("failed", "ValueError: no luck")
    assert remote.in_job(len, "abc") == ("graded", 3)  # the same job process, still serving


def test_a_job_that_dies_twice_gives_none():
    assert remote.in_job(_dies, None) is None
    assert remote.in_job(len, "ab") == ("graded", 2)  # a new job process for the next student


# ------------------------------------------------------------------ a real scheduler and workers
@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """A small mixed class and the process pool's grades of it."""
    root = tmp_path_factory.mktemp("cluster")
    make_class(root / "class", STUDENTS, seed=7)
    run(Options(root / "class", root / "pool", jobs=2, progress=False), say=lambda *_: None)
    return root / "class", root / "pool"


@needs_dask
def test_a_class_graded_on_two_workers_gets_the_pools_files_byte_for_byte(klass, scheduler, tmp_path):
    subs, pool = klass
    proc = _cli(subs, tmp_path / "out", scheduler)
    stdout, stderr = proc.communicate(timeout=900)
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    assert f"Graded {STUDENTS} student(s)" in stdout.decode()
    assert _graded(tmp_path / "out") == _graded(pool)
    assert len(_graded(pool)) == STUDENTS + 1


def _ppid(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _children(pid: int) -> list[int]:
    """Of any of its threads (the zygote is started by the thread that grades)."""
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and _ppid(p) == pid]


def _grading_worker() -> int | None:
    """A Dask worker process (a nanny's child) whose sandbox zygote has a student's sandbox open."""
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"dask_worker" not in cmd:  # the nanny; its worker process is a child of it
            continue
        for worker in _children(pid):
            for zygote in (z for job in _children(worker) for z in _children(job)):  # worker -> job -> zygote
                try:
                    is_zygote = Path(f"/proc/{zygote}/cmdline").read_bytes().startswith(b"attn-grade-sandbox")
                except OSError:
                    continue
                if is_zygote and _children(zygote):
                    return worker
    return None


@needs_dask
def test_a_worker_killed_while_it_grades_costs_no_grade(klass, scheduler, tmp_path):
    subs, pool = klass
    proc = _cli(subs, tmp_path / "out", scheduler)
    victim, deadline = None, time.monotonic() + 300
    while victim is None and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
        victim = _grading_worker()
    assert victim, "no worker was seen grading"
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=900)
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    assert _graded(tmp_path / "out") == _graded(pool)
    _wait_for_workers(scheduler, 2)  # the nanny started another: the next test has two again


PRETENDS = """\
# A worker with another NumPy, as far as the grader can tell.
import sys

from graders.grading import sources
from graders.sandbox.zygote import installed

sources.versions = lambda: {"python": sys.version.split()[0], "numpy": "1.0.0", "sympy": installed("sympy"),
                            "hypothesis": installed("hypothesis")}
"""


@needs_dask
def test_a_worker_with_another_numpy_is_refused_by_name(klass, tmp_path):
    import numpy

    subs, _ = klass
    (tmp_path / "pretend.py").write_text(PRETENDS)
    proc, address = _scheduler(tmp_path)
    workers = [_worker(tmp_path, "odd", "--preload", str(tmp_path / "pretend.py"))]
    try:
        _wait_for_workers(address, 1)
        grading = _cli(subs, tmp_path / "out", address)
        stdout, stderr = grading.communicate(timeout=600)
    finally:
        _stop([*workers, proc])
    said = stderr.decode(errors="replace")
    assert grading.returncode == 3, said[-3000:]
    assert f"has numpy 1.0.0, this machine {numpy.__version__}; grades depend on it" in said
    assert "Traceback" not in said
    assert not list((tmp_path / "out").glob("students/*/results.json"))


@needs_dask
def test_a_scheduler_that_cannot_be_reached_is_named(klass, tmp_path):
    subs, _ = klass
    grading = _cli(subs, tmp_path / "out", "tls://127.0.0.1:9", *_tls_options(tmp_path))
    stdout, stderr = grading.communicate(timeout=300)
    said = stderr.decode(errors="replace")
    assert grading.returncode == 3, said[-3000:]
    assert "cannot reach the Dask scheduler at tls://127.0.0.1:9" in said and "Traceback" not in said
