"""attn-grade grade --cluster beyond a plain class: what the pool does, the cluster does too.

nbgrader's submitted/ layout (the jail root is OUT/.sources, the files travel relative to it) and
a representative part of the hostile corpus (tests/hostile/) get the pool's files byte for byte;
a student whose grading kills the process grading it, twice, gets "grading crashed" as in the
pool while everybody else is graded; and a worker that isolates students less than the
coordinator is refused by the name of what it lacks, unless --allow-unisolated, when its
results.json say what held there. Workers are separate processes (support/dask_cluster.py) or
``--cluster local:2``; the pool's grades are made in this process, as tests/test_cluster.py does.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from graders import registry
from graders.grading import engine
from graders.batch.run import Options, run

from support.dask_cluster import ROOT, cli, cluster_of, graded, needs_dask, stop
from support.make_class import make_class

SOLUTIONS = ROOT / "solutions"
QUIET = {"say": lambda *_: None}


def _finish(proc, timeout=900):
    """(stdout, stderr) of a finished ``attn-grade grade`` (cli), as text."""
    stdout, stderr = proc.communicate(timeout=timeout)
    return stdout.decode(errors="replace"), stderr.decode(errors="replace")


def _results(out: Path, student: str) -> dict:
    return json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ nbgrader's layout
@needs_dask
def test_an_nbgrader_course_graded_on_the_cluster_gets_the_pools_files_byte_for_byte(tmp_path):
    pytest.importorskip("nbgrader")
    from graders.cli import main
    from support import nbclass

    course = nbclass.make_course(tmp_path / "course")
    mutants = {"softmax": "no_max_shift", "attention": "mask_after_softmax"}
    solution = {slug: (SOLUTIONS / f"{slug}.py").read_text() for slug in ("softmax", "attention", "multi_head")}
    nbclass.submit(course, "ref", solution)
    nbclass.submit(course, "mutant", {**solution, **{slug: (ROOT / "tests" / "mutants" / slug / f"{name}.py")
                                                      .read_text() for slug, name in mutants.items()}})
    nbclass.submit(course, "stub", {})  # the released notebooks, untouched
    args = ["--nbgrader-course", str(course), "--assignment", "part3_attention"]
    assert main(["grade", str(course / "submitted"), "--out", str(tmp_path / "pool"), "--no-progress", "--jobs", "2",
                 *args]) == 0
    proc = cli(course / "submitted", tmp_path / "out", "local:2", *args)
    stdout, stderr = _finish(proc)
    assert proc.returncode == 0, stderr[-3000:]
    assert "Graded 3 student(s)" in stdout and "nbgrader gradebook of" in stdout
    assert graded(tmp_path / "out") == graded(tmp_path / "pool")
    assert sorted(graded(tmp_path / "pool")) == ["gradebook.csv", *(f"students/{s}/results.json"
                                                                     for s in ("mutant", "ref", "stub"))]
    per = {s: _results(tmp_path / "out", s)["score"] for s in ("ref", "mutant", "stub")}
    assert per["ref"] > per["mutant"] > per["stub"] == 0, per  # graded, not all alike


# ------------------------------------------------------------------ hostile students
# An endless loop, a process flood, a memory hog, a sandbox that ends itself, forged results, a
# hunt for the solutions and answers that are costly to check (2**(d_k**1000): the grader's own time
# limit, a SIGALRM, must hold on a Dask worker, whose tasks run in threads): one of each kind of attack
# of tests/test_hostile.py, beside an honest student. Every outcome here is decided by a limit or a
# count, not by how fast the machine is.
HOSTILE_SUBSET = ("loop_at_import", "process_flood", "memory_in_call", "os_exit_in_call", "forge_results",
                  "steal_solutions", "costly_answers_variance")


def _hostile_class(tmp: Path) -> Path:
    """tests/test_hostile.py's students of HOSTILE_SUBSET and one honest student, in tmp/class; their
    attacks aim at tmp/out, where each batch grades (then moved aside)."""
    import test_hostile as hostile

    subs, students = tmp / "class", sorted([*HOSTILE_SUBSET, "honest_solutions"])
    values = {"OUT": str(tmp / "out"), "SUBMISSIONS": str(subs), "REPO": str(ROOT),
              "MARKER": str(tmp / "pwned-marker"), "STUDENTS": ",".join(students)}
    for case in HOSTILE_SUBSET:
        spec, folder = hostile.CASES[case], subs / case
        folder.mkdir(parents=True)
        for path in sorted((hostile.HOSTILE / case).glob("*.py")):
            (folder / path.name).write_bytes(hostile._fill(path.read_bytes(), values))
        for slug in spec.honest:
            shutil.copy(SOLUTIONS / f"{slug}.py", folder / f"{slug}.py")
    shutil.copytree(SOLUTIONS, subs / "honest_solutions", ignore=shutil.ignore_patterns("*.pyc", "__pycache__"))
    return subs


@needs_dask
def test_hostile_students_graded_on_the_cluster_get_the_pools_files_byte_for_byte(tmp_path):
    import test_hostile as hostile

    subs = _hostile_class(tmp_path)
    run(Options(subs, tmp_path / "out", jobs=2, timeout=hostile.TIMEOUT, progress=False), **QUIET)
    (tmp_path / "out").rename(tmp_path / "pool")
    proc = cli(subs, tmp_path / "out", "local:2", "--timeout", str(hostile.TIMEOUT))
    stdout, stderr = _finish(proc)
    assert proc.returncode == 0, stderr[-3000:]
    assert graded(tmp_path / "out") == graded(tmp_path / "pool")
    assert len(graded(tmp_path / "pool")) == len(HOSTILE_SUBSET) + 2
    assert not (tmp_path / "pwned-marker").exists()
    for case in HOSTILE_SUBSET:  # the attacks did what they do in tests/test_hostile.py: not a class of crashes
        spec = hostile.CASES[case]
        text = "\n".join(t["output"] for t in _results(tmp_path / "out", case)["tests"] if t["exercise"] == spec.slug)
        assert all(words in text for words in spec.words), (case, text[-2000:])
        assert "grading crashed" not in text, case
    assert _results(tmp_path / "out", "honest_solutions")["score"] == sum(e.points for e in registry.EXERCISES)


# ------------------------------------------------------------------ a student whose grading kills its grader
CRASHER = "student_001"
KILLS = f"""\
# The process grading {CRASHER} dies while it grades (a student's code cannot kill it: the sandbox
# keeps it from signalling its grader, so the grader is made to, as in tests/test_hostile_batch.py).
import os
import signal
from pathlib import Path

from graders.grading import engine

_real = engine.__dict__.setdefault("_real_grade_file", engine.grade_file)  # a preload may run twice


def grade_file(slug, path, **kwargs):
    if Path(path).parent.name == {CRASHER!r}:
        os.kill(os.getpid(), signal.SIGKILL)
    return _real(slug, path, **kwargs)


engine.grade_file = grade_file
"""


@needs_dask
def test_a_student_whose_grading_kills_two_workers_gets_grading_crashed_as_in_the_pool(tmp_path, monkeypatch):
    make_class(tmp_path / "class", 3, seed=7)
    real = engine.grade_file

    def dies(slug, path, **kwargs):  # the pool's job processes are forks of this one: they call this
        if Path(path).parent.name == CRASHER:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(slug, path, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(engine, "grade_file", dies)
        run(Options(tmp_path / "class", tmp_path / "pool", jobs=2, progress=False), **QUIET)
    (tmp_path / "kills.py").write_text(KILLS)
    address, procs = cluster_of(tmp_path, 2, "--preload", str(tmp_path / "kills.py"))
    try:
        proc = cli(tmp_path / "class", tmp_path / "out", address)
        stdout, stderr = _finish(proc)
    finally:
        stop(procs)
    assert proc.returncode == 0, stderr[-3000:]
    crashed = _results(tmp_path / "out", CRASHER)
    assert crashed["score"] == 0 and all("grading crashed" in t["output"] for t in crashed["tests"])
    assert "ended abruptly, twice" in crashed["tests"][0]["output"]
    assert f"{CRASHER}: grading crashed" in stdout
    for student in ("student_000", "student_002"):
        assert "grading crashed" not in json.dumps(_results(tmp_path / "out", student)), student
    assert graded(tmp_path / "out") == graded(tmp_path / "pool")


# ------------------------------------------------------------------ a worker that isolates less
WEAKER = """\
# A worker whose sandbox lacks {name}, as far as the grader can tell (its probe says so).
from dataclasses import replace

from graders.sandbox import sandbox as handle

_real = handle.__dict__.setdefault("_real_probe", handle.probe)  # a preload may run twice


def probe(limits=None):
    report = _real(limits)
    return replace(report, protections={{**report.protections, {name!r}: False}},
                   missing=(*report.missing, "{name}: not on this worker (a test's pretence)"))


handle.probe = probe
"""


@needs_dask
def test_a_worker_that_isolates_less_is_refused_by_name_unless_allowed_and_then_said(tmp_path):
    from graders.sandbox.sandbox import probe

    ours = probe().protections
    name = next((k for k in ("seccomp", "cgroup", "network") if ours.get(k) is True), None)
    if name is None:
        pytest.skip(f"this machine's sandbox has none of seccomp, a cgroup, a private network to lack: {ours}")
    make_class(tmp_path / "class", 1, seed=7)
    run(Options(tmp_path / "class", tmp_path / "pool", jobs=1, progress=False), **QUIET)
    (tmp_path / "weaker.py").write_text(WEAKER.format(name=name))
    address, procs = cluster_of(tmp_path, 1, "--preload", str(tmp_path / "weaker.py"))
    try:
        refused = cli(tmp_path / "class", tmp_path / "refused", address)
        _, said = _finish(refused, 600)
        allowed = cli(tmp_path / "class", tmp_path / "out", address, "--allow-unisolated")
        _, allowed_said = _finish(allowed)
    finally:
        stop(procs)
    assert refused.returncode == 3, said[-3000:]
    assert f"isolates students less than this machine ({name} missing there" in said, said[-3000:]
    assert "--allow-unisolated" in said and "Traceback" not in said
    assert not list((tmp_path / "refused").glob("students/*/results.json"))
    assert allowed.returncode == 0, allowed_said[-3000:]
    out, pool = _results(tmp_path / "out", "student_000"), _results(tmp_path / "pool", "student_000")
    held = out["extra_data"].pop("isolation")
    assert held == {"protections": {**ours, name: False}, "isolated": True, "allowed_unisolated": False}
    assert pool["extra_data"].pop("isolation")["protections"] == ours
    assert out == pool  # the grades are the pool's; only what held differs
