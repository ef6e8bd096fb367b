"""Hostile students that attack the batch itself rather than a check: their folder names, their
time, the size and bytes of their error texts, and the job processes grading them.

One batch (``attn-grade grade`` in a child process that is a subreaper, so every process the
batch starts is seen) grades them beside honest students. Each time: the batch ends in bounded
time with exit status 0; honest students' results are byte-identical to a clean batch of the
honest students alone; no results.json exceeds 1 MB; no control character but newline and tab
reaches stdout, stderr, a results.json or the gradebook; nothing survives the batch.
(tests/test_hostile.py holds the attacks on checks and on the sandbox.)
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graders import registry
from graders.batch import run as batch
from graders.outfolder.outfiles import student_id

HERE = Path(__file__).resolve().parent
SOLUTIONS = HERE.parent / "solutions"
RAW = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")  # a control character but newline and tab
TIMEOUT, FILE_BUDGET, STUDENT_BUDGET = 5.0, 20.0, 60.0  # generous: honest code under load
FULL = sum(e.points for e in registry.EXERCISES)  # every exercise at full marks

ESCAPES = '''def softmax(z, axis=-1):
    raise ValueError("\\x1b]52;c;aGVsbG8=\\x07\\x1b[8mconcealed\\x1b[0m\\r\\x1b[2Kerased\\u202e")
'''
HUGE_ERROR = '''def softmax(z, axis=-1):
    raise ValueError("x" * 3_000_000)
'''
SLEEPER = '''import time
import numpy as np


def softmax(z, axis=-1):
    time.sleep(4.8)  # right answers, each just under the five-second call timeout
    z = np.asarray(z, dtype=float)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''
WEIRD_NAMES = ("gradebook.csv", "students", "=1+2", "+cmd", "-2+3", "@SUM(A1)", "back\\slash",
               " =1+2", "|cmd", "\uff1d1+2", "\u3000\uff0bcmd", "\u200b@SUM(A1)")  # issue 35: blanks, pipe, full width
NOT_UTF8 = b"caf\xe9"


def _honest(folder: Path) -> None:
    folder.mkdir(parents=True)
    for path in sorted(SOLUTIONS.glob("*.py")):
        shutil.copy(path, folder / path.name)


def _one_file(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "softmax.py").write_text(text)


RUNNER = r'''
import ctypes, json, os, sys, time
from pathlib import Path
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans of the batch come to us
pid = os.fork()
if pid == 0:
    from graders.cli import main
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
    sys.stdout.flush()
    os._exit(code or 0)
_, status = os.waitpid(pid, 0)
deadline = time.monotonic() + 10
left = []
while time.monotonic() < deadline:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass
    left = []
    for p in os.listdir("/proc"):
        try:
            if p.isdigit() and open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1] == str(os.getpid()):
                left.append(p)
        except OSError:  # it ended while we looked
            pass
    if not left:
        break
    time.sleep(0.1)
print("\nRUNNER " + json.dumps({"code": os.waitstatus_to_exitcode(status), "left": left}))
'''


def _grade(subs: Path, out: Path, *extra) -> tuple[dict, bytes, bytes, float]:
    argv = ["grade", str(subs), "--out", str(out), "--jobs", "2", "--no-progress", "--timeout", str(TIMEOUT),
            "--file-budget", str(FILE_BUDGET), "--student-budget", str(STUDENT_BUDGET), *extra]
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", RUNNER, *argv], capture_output=True, timeout=600)
    took = time.monotonic() - start
    tail = done.stdout.rsplit(b"\nRUNNER ", 1)
    assert len(tail) == 2, done.stderr.decode(errors="replace")[-3000:]
    return json.loads(tail[1]), tail[0], done.stderr, took


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile_batch")
    clean, subs = root / "clean", root / "class"
    for where in (clean, subs):
        _honest(where / "honest_a")
        _honest(where / "honest_z")
    for name in WEIRD_NAMES:
        _honest(subs / name)
    os.mkdir(os.fsencode(subs) + b"/" + NOT_UTF8)
    for path in sorted(SOLUTIONS.glob("*.py")):
        shutil.copy(path, os.fsdecode(os.fsencode(subs) + b"/" + NOT_UTF8 + b"/" + os.fsencode(path.name)))
    _one_file(subs / "escapes", ESCAPES)
    _one_file(subs / "huge_error", HUGE_ERROR)
    _one_file(subs / "sleeper", SLEEPER)
    runner, _, _, _ = _grade(clean, root / "clean_out")
    assert runner["code"] == 0
    runner, stdout, stderr, took = _grade(subs, root / "out")
    return {"clean": root / "clean_out", "out": root / "out", "runner": runner, "stdout": stdout,
            "stderr": stderr, "took": took}


def _results(out: Path, student: str) -> dict:
    return json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))


def test_the_batch_ends_in_bounded_time_with_status_zero_and_nothing_left_running(graded):
    assert graded["runner"]["code"] == 0, graded["stderr"].decode(errors="replace")[-3000:]
    assert graded["runner"]["left"] == []
    assert graded["took"] < 240


def test_honest_results_are_unchanged(graded):
    for student in ("honest_a", "honest_z"):
        got = (graded["out"] / "students" / student / "results.json").read_bytes()
        assert got == (graded["clean"] / "students" / student / "results.json").read_bytes(), student


@pytest.mark.parametrize("name", WEIRD_NAMES)
def test_any_folder_name_is_a_student_like_any_other(graded, name):
    data = _results(graded["out"], student_id(name))
    assert data["score"] == data["max_score"] == FULL
    assert (graded["out"] / "gradebook.csv").is_file()


def test_a_folder_name_that_is_not_utf8_is_written_escaped(graded):
    assert student_id(os.fsdecode(NOT_UTF8)) == "caf\\xe9"
    assert _results(graded["out"], "caf\\xe9")["score"] == FULL
    assert "caf\\xe9,8," in (graded["out"] / "gradebook.csv").read_text(encoding="utf-8")


def test_gradebook_cells_cannot_be_run_as_formulas(graded):
    rows = list(csv.reader((graded["out"] / "gradebook.csv").read_text(encoding="utf-8").splitlines()))
    names = [r[0] for r in rows[1:]]
    for name in ("=1+2", "+cmd", "-2+3", "@SUM(A1)", " =1+2", "|cmd", "\uff1d1+2", "\u3000\uff0bcmd", "\u200b@SUM(A1)"):
        assert "'" + name in names, names
    assert not [n for n in names if n[:1] in "=+-@| \uff1d\u3000\u200b"]
    assert "back\\\\slash" in names and "gradebook.csv" in names and "students" in names


def test_no_control_character_reaches_the_screen_or_the_files(graded):
    out = graded["out"]
    for blob in [graded["stdout"], graded["stderr"], *(p.read_bytes() for p in out.rglob("*") if p.is_file())]:
        assert not RAW.search(blob.replace(b"\r\n", b"\n")), RAW.search(blob)
    message = next(t["output"] for t in _results(out, "escapes")["tests"] if t["exercise"] == "softmax")
    assert "\\x1b]52;c;" in message and "\\u202e" in message  # escaped, so a reader sees what was there
    shown = subprocess.run([sys.executable, "-m", "graders.cli", "show", str(out / "students" / "escapes" /
                                                                          "results.json"), "--color", "never"],
                           capture_output=True, timeout=60)
    assert shown.returncode == 0 and not RAW.search(shown.stdout.replace(b"\r\n", b"\n"))


def test_feedback_is_capped_so_no_results_file_exceeds_one_megabyte(graded):
    sizes = {p.parent.name: p.stat().st_size for p in (graded["out"] / "students").glob("*/results.json")}
    assert sizes and max(sizes.values()) < 1 << 20, sizes
    data = _results(graded["out"], "huge_error")
    assert all(len(t["output"]) < 5000 for t in data["tests"])
    assert data["score"] == 0


def test_bounded_cuts_one_check_and_one_file():
    from graders.grading.results import MAX_CHECK_TEXT, MAX_FILE_TEXT, CheckResult, ExerciseResult, bounded

    checks = [CheckResult("softmax", f"c{i}", 0.0, 1.0, "failed", "y" * 10 * MAX_CHECK_TEXT, "public")
              for i in range(30)]
    result = bounded(ExerciseResult("softmax", "t", checks, problem="\x1b[2J" + "p" * 10 * MAX_CHECK_TEXT))
    lengths = [len(c.message) for c in result.checks]
    assert max(lengths) < MAX_CHECK_TEXT + 100 and "more characters not shown" in result.checks[0].message
    assert sum(lengths) < MAX_FILE_TEXT + 30 * 300
    assert result.problem.startswith("\\x1b[2J") and len(result.problem) < MAX_CHECK_TEXT + 100


def test_a_slow_student_is_stopped_by_the_budgets_which_are_named(graded):
    data = _results(graded["out"], "sleeper")
    softmax = [t for t in data["tests"] if t["exercise"] == "softmax"]
    assert any(f"time budget for one exercise file ({FILE_BUDGET:g} s)" in t["output"] for t in softmax), softmax
    assert 0 < sum(t["score"] for t in softmax) < 10  # what ran before the budget was spent still counts


# ------------------------------------------------------------------ job processes that die
def _class(root: Path, n: int) -> Path:
    subs = root / "class"
    for i in range(n):
        _honest(subs / f"s{i}")
    return subs


def test_a_job_process_killed_mid_batch_is_noticed_and_its_student_graded_again(tmp_path):
    subs = _class(tmp_path, 4)
    batch.run(batch.Options(subs, tmp_path / "clean", jobs=2, progress=False), say=lambda *_: None)
    proc = subprocess.Popen([sys.executable, "-m", "graders.cli", "grade", str(subs), "--out", str(tmp_path / "out"),
                             "--jobs", "2", "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    victims, deadline = [], time.monotonic() + 120
    while not victims and time.monotonic() < deadline:  # a job process (a child of the batch, not its zygote),
        time.sleep(0.05)  # once a student's sandbox has been forked after it (the preflight's came before)
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        kids = [p for p in pids if _ppid(p) == proc.pid]
        zygotes = [p for p in kids if _zygote(p)]
        jobs = [p for p in kids if p not in zygotes]
        if jobs and any(_ppid(p) in zygotes and p > max(jobs) for p in pids):
            victims = jobs
    assert victims, "no job process was seen"
    os.kill(victims[0], signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    for i in range(4):
        rel = Path("students") / f"s{i}" / "results.json"
        got, want = (tmp_path / "out" / rel).read_bytes(), (tmp_path / "clean" / rel).read_bytes()
        assert got == want, (f"s{i}: {_differences(json.loads(got), json.loads(want))}; the batch said: "
                             f"{stdout.decode(errors='replace')[-1500:]}{stderr.decode(errors='replace')[-1500:]}")
    assert (tmp_path / "out" / "gradebook.csv").read_bytes() == (tmp_path / "clean" / "gradebook.csv").read_bytes()


def _differences(got, want, where="") -> list:
    """Where two results.json differ, as (path, got, expected), the first ten."""
    if isinstance(got, dict) and isinstance(want, dict):
        keys = sorted(set(got) | set(want))
        return [d for k in keys for d in _differences(got.get(k), want.get(k), f"{where}.{k}")][:10]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in _differences(g, w, f"{where}[{i}]")][:10]
    return [] if got == want else [(where, str(got)[:300], str(want)[:300])]


def _zygote(pid: str) -> bool:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"attn-grade-sandbox")
    except OSError:
        return False


def _ppid(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def test_a_student_whose_grading_always_dies_gets_grading_crashed_and_the_batch_goes_on(tmp_path, monkeypatch):
    from graders.grading import engine

    subs = _class(tmp_path, 3)
    real = engine.grade_file

    def dies_for_s1(slug, path, **kwargs):  # the job processes are forks of this one: they call this
        if Path(path).parent.name == "s1":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(slug, path, **kwargs)

    monkeypatch.setattr(engine, "grade_file", dies_for_s1)
    lines = []
    batch.run(batch.Options(subs, tmp_path / "out", jobs=2, progress=False), say=lines.append)
    crashed = _results(tmp_path / "out", "s1")
    assert crashed["score"] == 0 and all("grading crashed" in t["output"] for t in crashed["tests"])
    assert "twice" in crashed["tests"][0]["output"]
    for name in ("s0", "s2"):
        assert _results(tmp_path / "out", name)["score"] == FULL
    assert "s1: grading crashed" in "\n".join(lines)


# ------------------------------------------------------------------ one function that hangs
HANGS = (SOLUTIONS / "saturation.py").read_text() + '''

def dot_variances(d_k, trials, rng):  # replaces the right one: an endless loop
    while True:
        pass
'''


CRASHES = (SOLUTIONS / "saturation.py").read_text() + '''

def dot_variances(d_k, trials, rng):  # replaces the right one: ends the process
    import os
    os._exit(3)
'''


@pytest.mark.parametrize("source", [HANGS, CRASHES], ids=["hangs", "ends the worker"])
def test_a_hang_or_crash_in_one_function_ends_only_the_checks_that_call_it(tmp_path, source):
    from graders.grading.engine import checks_of, grade_file

    (tmp_path / "saturation.py").write_text(source)
    result = grade_file("saturation", tmp_path / "saturation.py", call_timeout=2.0)
    uses = {c.spec.name: set(c.spec.uses) for c in checks_of("saturation")}
    for c in result.checks:
        if "dot_variances" in uses[c.name]:
            assert c.points == 0 and ("timed out" in c.message or "ended" in c.message), (c.name, c.message)
        else:  # graded in a fresh worker, as if nothing had happened
            assert c.points == c.max_points, (c.name, c.message)
    assert any(uses[c.name] == {"mean_top_weight"} for c in result.checks)
