"""attn-grade prepare (graders/grading/prepare.py): every check recorded ahead, so a learner's
first check records nothing, and grades exactly as a check without any cache does."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from graders import registry
from graders.grading import prepare as prepare_module

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "graders.cli"]
SLUGS = [e.slug for e in registry.EXERCISES]


def attn(*args, cache, runtime, cwd=ROOT):
    env = {**os.environ, "ATTN_GRADE_CACHE": str(cache), "ATTN_GRADE_RUNTIME": str(runtime),
           "ATTN_GRADE_RESIDENT": "0", "NO_COLOR": "1", "COLUMNS": "80"}
    return subprocess.run(CLI + list(args), env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


def plans_in(cache: Path) -> dict:
    folder = cache / "plans"
    return {p.name: p.read_bytes() for p in folder.glob("*.json")} if folder.is_dir() else {}


def a_class_of_files(folder: Path) -> Path:
    """The stubs, with a softmax that has a mistake the lessons teach and a right attention
    written as a tutorial writes it."""
    shutil.copytree(ROOT / "exercises", folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py", folder / "softmax.py")
    shutil.copyfile(sorted((ROOT / "tests" / "corpus" / "attention").glob("*.py"))[0], folder / "attention.py")
    return folder


def results(done) -> list:
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    data.pop("execution_time", None)
    return data["tests"]


def test_a_first_check_after_prepare_records_nothing_and_grades_as_without_any_cache(tmp_path):
    prepared, runtime = tmp_path / "prepared", tmp_path / "run"
    done = attn("prepare", cache=prepared, runtime=runtime)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ready:" in done.stdout and "the reference:" in done.stdout
    for slug in SLUGS:  # every exercise's reference at full marks, said per exercise
        line = next(x for x in done.stdout.splitlines() if x.strip().startswith(slug + " "))
        got, full = line.rsplit("the reference: ", 1)[1].split(" ")[0].split("/")
        assert got == full, line
    before = plans_in(prepared)
    assert before, "prepare wrote no plan"

    work = a_class_of_files(tmp_path / "exercises")
    first = results(attn("check", "--json", "--dir", str(work), cache=prepared, runtime=runtime))
    assert plans_in(prepared) == before  # nothing recorded by the first check, nothing rewritten

    live = results(attn("check", "--json", "--dir", str(work), cache="off", runtime=runtime))
    assert first == live  # a cache makes grading faster, never different
    assert any(t["score"] < t["max_score"] for t in first if t["name"].startswith("softmax"))

    # what prepare recorded is exactly what a first check without it records
    unprepared = tmp_path / "unprepared"
    assert results(attn("check", "--json", "--dir", str(work), cache=unprepared, runtime=runtime)) == live
    assert plans_in(unprepared) == before


def test_prepare_again_records_nothing_new(tmp_path):
    cache, runtime = tmp_path / "cache", tmp_path / "run"
    assert attn("prepare", "--quiet", cache=cache, runtime=runtime).returncode == 0
    before = plans_in(cache)
    again = attn("prepare", "--quiet", cache=cache, runtime=runtime)
    assert again.returncode == 0
    assert "(0 recorded now)" in again.stdout and again.stdout.count("\n") == 2, again.stdout
    assert plans_in(cache) == before


def test_with_the_cache_off_prepare_says_there_is_nothing_to_do(tmp_path):
    done = attn("prepare", cache="off", runtime=tmp_path / "run")
    assert done.returncode == 0
    assert "nothing to do" in done.stdout and "ATTN_GRADE_CACHE=off" in done.stdout
    assert not done.stderr


def test_a_reference_below_full_marks_on_this_machine_is_said_and_fails(tmp_path, monkeypatch, capsys):
    from graders.cli import dispatch
    from graders.grading.results import CheckResult, ExerciseResult
    from graders.kit.outcomes import Outcome

    def short(slugs, folder, *, hidden=True, each=None):
        r = ExerciseResult("softmax", "Softmax", [CheckResult("softmax", "rows sum to one", 0, 2, Outcome.FAILED,
                                                              "the sandbox refused to start", "public")])
        each(r)
        return [r], None

    monkeypatch.setattr(prepare_module, "rehearse", short)
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    code, _ = dispatch(["prepare"])
    out = capsys.readouterr().out
    assert code == 1
    assert "softmax: the reference solution lost points here (the sandbox refused to start)" in " ".join(out.split())
