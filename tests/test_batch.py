"""attn-grade grade: outputs, determinism, and resuming after a hard kill."""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graders import registry
from graders.batch.run import Options, run
from graders.cli import main

from support.make_class import make_class  # noqa: E402 - tests/support, shared with bench/

SLUGS = [e.slug for e in registry.EXERCISES]
STUDENTS = 4
ROOT = Path(__file__).resolve().parents[1]


def _files(out: Path) -> dict:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    root = tmp_path_factory.mktemp("batch")
    make_class(root / "class", STUDENTS, seed=7)
    out = root / "graded"
    run(Options(root / "class", out, jobs=2, progress=False), say=lambda *_: None)
    return root / "class", out


def test_every_student_gets_a_results_json_with_every_exercise(klass):
    subs, out = klass
    for student in sorted(p.name for p in subs.iterdir()):
        data = json.loads((out / "students" / student / "results.json").read_text())
        assert {t["exercise"] for t in data["tests"]} == set(SLUGS)
        for t in data["tests"]:
            assert {"name", "score", "max_score", "output", "visibility", "status"} <= set(t)
        assert data["score"] == pytest.approx(sum(t["score"] for t in data["tests"]))
        missing = [s for s in SLUGS if not (subs / student / f"{s}.py").exists()]
        for t in data["tests"]:
            if t["exercise"] in missing:
                assert t["score"] == 0 and "was not found" in t["output"]


def test_gradebook_has_a_row_per_student_that_adds_up(klass):
    subs, out = klass
    rows = list(csv.reader((out / "gradebook.csv").read_text().splitlines()))
    assert rows[0] == ["student", *SLUGS, "total"]
    assert [r[0] for r in rows[1:]] == sorted(p.name for p in subs.iterdir())
    for r in rows[1:]:
        data = json.loads((out / "students" / r[0] / "results.json").read_text())
        assert float(r[-1]) == pytest.approx(data["score"])
        assert float(r[-1]) == pytest.approx(sum(float(x) for x in r[1:-1]))


def test_a_second_run_gives_identical_files(klass, tmp_path):
    subs, out = klass
    run(Options(subs, tmp_path / "again", jobs=1, progress=False), say=lambda *_: None)
    assert _files(tmp_path / "again") == _files(out)


def test_a_run_killed_part_way_resumes_to_the_same_result(klass, tmp_path):
    subs, out = klass
    target = tmp_path / "killed"
    cmd = [sys.executable, "-m", "graders.cli", "grade", str(subs), "--out", str(target), "--jobs", "1",
           "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 240
    while not list(target.glob("students/*/results.json")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = list(target.glob("students/*/results.json"))
    assert 1 <= len(done) < STUDENTS, "the run was not stopped part-way"
    assert not (target / "gradebook.csv").exists()
    code = main(["grade", str(subs), "--out", str(target), "--no-progress"])
    assert code == 0
    resumed = _files(target)
    assert resumed.pop("integrity.json")  # the command also writes the integrity report; run() alone does not
    assert resumed.pop("copying.json")  # and the evidence of possible copying (classroom/integrity/copying.py)
    assert resumed.pop(".attn-grade.lock") is not None  # and holds OUT while it writes (outfiles.writing)
    assert resumed == _files(out)  # torn temporary files of the killed run are gone too


def test_only_students_whose_files_changed_are_graded_again(klass, tmp_path, capsys):
    """Results are kept while nothing they depend on changed; a changed file is never left stale."""
    subs, out = klass
    copy, target = tmp_path / "class", tmp_path / "graded"
    shutil.copytree(subs, copy)
    shutil.copytree(out, target)
    first, *others = sorted(p.name for p in copy.iterdir())
    before = {n: (target / "students" / n / "results.json").stat().st_mtime_ns for n in others}
    (copy / first / "softmax.py").write_text("def softmax(z, axis=-1):\n    return z\n")
    assert main(["grade", str(copy), "--out", str(target), "--no-progress"]) == 0
    assert f"{len(others)} student(s) already graded" in capsys.readouterr().out
    data = json.loads((target / "students" / first / "results.json").read_text())
    assert sum(t["score"] for t in data["tests"] if t["exercise"] == "softmax") < 10
    for n in others:  # untouched: not even rewritten
        assert (target / "students" / n / "results.json").stat().st_mtime_ns == before[n]
    assert main(["grade", str(copy), "--out", str(target), "--no-progress", "--force"]) == 0
    assert "already graded" not in capsys.readouterr().out
    assert all((target / "students" / n / "results.json").stat().st_mtime_ns != before[n] for n in others)


def test_changed_settings_grade_everyone_again(klass, tmp_path, capsys):
    subs, out = klass
    target = tmp_path / "graded"
    shutil.copytree(out, target)
    assert main(["grade", str(subs), "--out", str(target), "--no-progress"]) == 0
    assert f"{STUDENTS} student(s) already graded" in capsys.readouterr().out
    assert main(["grade", str(subs), "--out", str(target), "--no-progress", "--timeout", "9"]) == 0
    assert "already graded" not in capsys.readouterr().out


def test_one_assignment_or_one_student_at_a_time(klass, tmp_path, capsys):
    subs, out = klass
    target = tmp_path / "part3"
    assert main(["grade", str(subs), "--out", str(target), "--no-progress", "--assignment", "part3_attention"]) == 0
    said = capsys.readouterr().out
    part3 = [e for e in registry.EXERCISES if e.assignment == "part3_attention"]
    assert f"/ {sum(e.points for e in part3):g} (part3_attention only)" in said
    rows = list(csv.reader((target / "gradebook.csv").read_text().splitlines()))
    assert rows[0] == ["student", *(e.slug for e in part3), "total"]
    for r in rows[1:]:
        mine = json.loads((target / "students" / r[0] / "results.json").read_text())
        full = json.loads((out / "students" / r[0] / "results.json").read_text())
        assert {t["exercise"] for t in mine["tests"]} == {e.slug for e in part3}
        assert mine["tests"] == [t for t in full["tests"] if t["exercise"] in {e.slug for e in part3}]
    with pytest.raises(SystemExit):  # the same OUT for the whole course would replace part3's results
        main(["grade", str(subs), "--out", str(target), "--no-progress"])
    assert "holds results for other exercises" in capsys.readouterr().err
    one = sorted(p.name for p in subs.iterdir())[1]
    alone = tmp_path / "alone"
    assert main(["grade", str(subs), "--out", str(alone), "--no-progress", "--student", one]) == 0
    assert sorted(p.name for p in (alone / "students").iterdir()) == [one]
    assert (alone / "students" / one / "results.json").read_bytes() == \
        (out / "students" / one / "results.json").read_bytes()
    with pytest.raises(SystemExit):
        main(["grade", str(subs), "--out", str(alone), "--no-progress", "--student", "nobody"])
    assert "no student called nobody" in capsys.readouterr().err


def test_stray_files_are_skipped_with_a_reason(tmp_path, capsys):
    subs = tmp_path / "class"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(Path(registry.__file__).parent.parent / "solutions" / "softmax.py", subs / "ann" / "softmax.py")
    (subs / "notes.txt").write_text("not a student")
    assert main(["grade", str(subs), "--out", str(tmp_path / "graded"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "skipped notes.txt: not a folder" in out
    assert (tmp_path / "graded" / "students" / "ann" / "results.json").exists()


@pytest.mark.parametrize("argv, words", [
    (["grade", "{subs}", "--out", "{subs}/graded"], "inside SUBMISSIONS"),
    (["grade", "{subs}/nope", "--out", "{tmp}/graded"], "no such folder"),
    (["grade", "{subs}", "--out", "{tmp}/graded", "--jobs", "0"], "--jobs must be at least 1"),
    (["grade", "{subs}", "--out", "{tmp}/graded", "--memory", "10"], "at least 256 MB"),
])
def test_bad_arguments_exit_two_with_a_named_cause(tmp_path, capsys, argv, words):
    subs = tmp_path / "class"
    subs.mkdir()
    with pytest.raises(SystemExit) as info:
        main([a.format(subs=subs, tmp=tmp_path) for a in argv])
    assert info.value.code == 2 and words in capsys.readouterr().err


def test_an_honest_class_raises_no_integrity_flag_and_a_copy_does(tmp_path, capsys):
    root = Path(registry.__file__).parent.parent
    subs = tmp_path / "class"
    for e in registry.EXERCISES:
        (subs / "ann").mkdir(parents=True, exist_ok=True)
        (subs / "bob").mkdir(exist_ok=True)
        shutil.copy(root / "solutions" / f"{e.slug}.py", subs / "ann" / f"{e.slug}.py")
        shutil.copy(sorted((root / "tests" / "alternatives" / e.slug).glob("*.py"))[0], subs / "bob" / f"{e.slug}.py")
    assert main(["grade", str(subs), "--out", str(tmp_path / "graded"), "--no-progress"]) == 0
    assert "Integrity: nothing to look at" in capsys.readouterr().out
    assert json.loads((tmp_path / "graded" / "integrity.json").read_text()) == []
    copy = (subs / "ann" / "softmax.py").read_text()
    (subs / "bob" / "softmax.py").write_text("# my own work\n" + copy.replace("    ", "  "))  # same tokens
    assert main(["grade", str(subs), "--out", str(tmp_path / "graded"), "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "ann softmax.py: identical answers: the same softmax answer as bob" in said
    assert "bob softmax.py: identical answers: the same softmax answer as ann" in said


@pytest.mark.parametrize("width", [None, 80])
def test_the_summary_fits_the_terminal_and_says_the_same(klass, tmp_path, capsys, monkeypatch, width):
    """At 80 columns no line of the summary is wider but a path (its Isolation line is some 330 characters);
    wrapped, it says word for word what it says unwrapped, as it is when not on a terminal."""
    import graders.grading.report as report
    import graders.terminal.wrap as wrap

    subs, out = klass
    target = tmp_path / "graded"
    shutil.copytree(out, target)
    for module in (report, wrap):  # the report's lines, and what a command says at its end
        monkeypatch.setattr(module, "terminal_width", lambda stream=None: width)
    first = min(p.name for p in subs.iterdir())
    assert main(["grade", str(subs), "--out", str(target), "--no-progress", "--force", "--student", first]) == 0
    said = capsys.readouterr().out
    lines = said.splitlines()
    isolation = next(i for i, line in enumerate(lines) if line.startswith("Isolation: "))
    if width is None:
        assert len(lines[isolation]) > 200  # one line, as written
    else:
        wide = [line for line in lines if len(line) > width and " " in line.strip()]  # a long path is one word
        assert not wide, wide
        assert lines[isolation + 1].startswith("  ")  # continued, two spaces in
    assert " ".join(said.split()).count("a seccomp filter") == 1


BIG = 2_000_000  # characters of one student's results.json text, here


def _big_results(task):
    """A job's answer with a large results.json text (module level: the pool pickles it by name)."""
    return task.name, "x" * BIG + task.name, {}


def test_the_pool_keeps_no_students_results_once_written(tmp_path, monkeypatch):
    import tracemalloc

    from graders.batch import run as batch

    monkeypatch.setattr(batch, "grade_student", _big_results)
    opts = Options(tmp_path, tmp_path / "out", progress=False)
    tasks = [batch.Task(f"s{i:02d}", str(tmp_path), str(tmp_path), opts, {}, {}, (), "") for i in range(30)]
    written = []
    tracemalloc.start()
    try:
        batch._grade_all(tasks, 2, lambda name, text, facts: written.append((name, len(text))))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sorted(written) == [(f"s{i:02d}", BIG + 3) for i in range(30)]
    assert peak < 10 * BIG  # 30 texts held until the last was written would be 30 * BIG


WARM = """
import json, sys
from pathlib import Path
from graders.batch import run as batch

def look(tasks, jobs, done, ends=(), rounds=3):  # where the job processes are forked: what would they inherit?
    from graders.grading.engine import reference
    seen = {name: name in sys.modules for name in sys.argv[2:]}
    print(json.dumps(dict(seen, solution=reference("softmax")._module is not None)))

batch._grade_all = look
batch.run(batch.Options(Path(sys.argv[1]), Path(sys.argv[1]).parent / "out", jobs=2, progress=False),
          say=lambda *_: None)
"""


def test_the_job_processes_are_forked_with_the_graders_hypothesis_and_sympy_imported(tmp_path):
    """Each job process would otherwise import them itself before its first student (about 1.5 s)."""
    student = tmp_path / "class" / "ada"
    student.mkdir(parents=True)
    (student / "softmax.py").write_text("def softmax(x, axis=-1):\n    raise NotImplementedError\n")
    names = ["hypothesis", "sympy", "graders.softmax", "graders.hidden.softmax"]
    done = subprocess.run([sys.executable, "-c", WARM, str(student.parent), *names], capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == dict.fromkeys(names + ["solution"], True)


STARTS = """
import os, sys
from pathlib import Path
from graders.batch import run as batch
from graders.sandbox import zygote

started = zygote.Zygote._start

def counted(self, sympy=True):  # the job processes are forks of this one: they would call this too
    started(self, sympy)
    with open(sys.argv[2], "a") as f:
        f.write(f"{os.getpid()} {self.proc.pid}\\n")

zygote.Zygote._start = counted
batch.run(batch.Options(Path(sys.argv[1]), Path(sys.argv[2]).parent / "out", jobs=2, progress=False),
          say=lambda *_: None)
print(os.getpid())
"""


def test_the_job_processes_fork_their_sandboxes_from_the_batchs_one_zygote(tmp_path):
    """Python, NumPy and SymPy are started once a batch, in the preflight's zygote, not once per job
    process; it grades as before, and it ends with the batch."""
    for name in ("ada", "ben", "cy", "dee"):
        (tmp_path / "class" / name).mkdir(parents=True)
        shutil.copyfile(ROOT / "solutions" / "softmax.py", tmp_path / "class" / name / "softmax.py")
    log = tmp_path / "starts.txt"
    done = subprocess.run([sys.executable, "-c", STARTS, str(tmp_path / "class"), str(log)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    starts = [line.split() for line in log.read_text().splitlines()]
    assert [who for who, _ in starts] == [done.stdout.split()[-1]], starts  # the batch's own process, once
    for name in ("ada", "ben", "cy", "dee"):
        data = json.loads((tmp_path / "out" / "students" / name / "results.json").read_text())
        softmax = [t for t in data["tests"] if t["exercise"] == "softmax"]
        assert sum(t["score"] for t in softmax) == sum(t["max_score"] for t in softmax) > 0
    zygote_pid = starts[0][1]
    assert not os.path.exists(f"/proc/{zygote_pid}") or \
        Path(f"/proc/{zygote_pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"


def test_a_batch_refused_for_want_of_isolation_leaves_no_zygote_running(tmp_path, monkeypatch):
    """The preflight keeps its zygote for the job processes; when it then refuses to grade (the
    sandbox isolates nobody here), that zygote ends with the refusal, not with the process."""
    import types

    from graders.batch import run as batch
    from graders.sandbox import sandbox, zygote

    (tmp_path / "class" / "ada").mkdir(parents=True)
    shutil.copyfile(ROOT / "solutions" / "softmax.py", tmp_path / "class" / "ada" / "softmax.py")
    monkeypatch.setattr(sandbox, "probe", lambda limits: types.SimpleNamespace(
        isolated=False, missing=["no isolation (this test's probe)"], protections={}))
    with pytest.raises(batch.NoSandbox, match="cannot isolate students here"):
        run(Options(tmp_path / "class", tmp_path / "out", jobs=1, progress=False), say=lambda *_: None)
    started = zygote.shared().proc
    assert started is None or started.poll() is not None
