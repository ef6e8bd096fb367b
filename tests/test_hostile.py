"""Hostile submissions: one batch grades them all, next to two honest students.

Each folder tests/hostile/<case>/ is one "student" whose file for one exercise
attacks the grader (hangs, exits, exhausts memory, leaves processes behind,
forges answers or results, lies about its values, snoops for the solutions)
and who also hands in correct code (copied from solutions/ at fixture time) for
other exercises. Placeholders @@OUT@@, @@SUBMISSIONS@@, @@REPO@@, @@MARKER@@ and
@@STUDENTS@@ in those files are replaced by the real paths and names, so an
attack is made against the real targets, not only against guesses.
(tests/hostile/rewrite_worker/ is no student of this batch: tests/test_parent_decides.py
grades each of its files next to its honest twin.)

The batch runs once per session (``graded``) in a child process that is a
child subreaper: every process the batch starts, even one that escaped with
setsid(), is reparented to it when its parent ends, so it can list what
is still running afterwards. For each case the tests then require:

1. the batch finishes, in bounded time, and grades everyone;
2. the attacked exercise earns only what its honest output earns (zero for a
   pure exploit; the checks it legitimately passes are named in ``earns``);
3. the feedback names the cause;
4. the student's other, honest exercises get full marks, and the honest
   students' results.json equal those of a separate clean batch;
5. no process is left running, and no cgroup is left behind;
6. no file outside OUT changes (the repository, the submissions, /tmp/pwned);
7. no results.json exceeds 1 MB, and nothing the students print reaches the
   runner's terminal;
8. the memory the whole batch is charged at its peak (a memory cgroup of the
   runner's own, below which the sandboxes' cgroups are) stays bounded.

Run as a script (``python test_hostile.py CONFIG``) this file is that runner.
"""

from __future__ import annotations

import csv
import ctypes
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from graders import registry
from support.once import once_per_session

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HOSTILE = HERE / "hostile"
SOLUTIONS = ROOT / "solutions"

TIMEOUT = 2.0  # seconds per call (--timeout)
JOBS = 2
BATCH_BOUND = 240.0  # seconds: a batch that takes longer has hung somewhere
GRACE = 10.0  # seconds for processes to end after the batch returns
PWNED = Path("/tmp/pwned")


@dataclass(frozen=True)
class Case:
    slug: str  # the attacked exercise (tests/hostile/<case>/<slug>.py)
    honest: tuple  # exercises handed in as copies of solutions/
    words: tuple = ()  # each must appear in the feedback of the attacked exercise
    earns: tuple | None = ()  # checks its honest output passes; None: all of them (its output is right)


UNCHANGED = ("leaves its input unchanged and returns a new array",)  # softmax: garbage that leaves its argument alone

CASES = {
    "loop_at_import": Case("hand_scores", ("softmax",), ("timed out", "importing your file")),
    "loop_in_call": Case("hand_scores", ("softmax",), ("timed out",)),
    "sleep_ignoring_signals": Case("hand_scores", ("worked_example",), ("timed out",)),
    "sys_exit_at_import": Case("variance_proof", ("softmax",), ("raised SystemExit while being imported",)),
    "sys_exit_in_call": Case("variance_proof", ("worked_example",), ("raised SystemExit",)),
    "os_exit_at_import": Case("variance_proof", ("softmax",), ("ended while importing", "os._exit")),
    "os_exit_in_call": Case("variance_proof", ("worked_example",), ("ended while running",)),
    "systemexit_at_import": Case("variance_proof", ("hand_scores",), ("raised SystemExit while being imported",)),
    "systemexit_in_call": Case("variance_proof", ("softmax",), ("raised SystemExit",)),
    "keyboardinterrupt_at_import": Case("variance_proof", ("worked_example",),
                                        ("raised KeyboardInterrupt while being imported",)),
    "keyboardinterrupt_in_call": Case("variance_proof", ("softmax",), ("raised KeyboardInterrupt",)),
    "recursion": Case("variance_proof", ("softmax",), ("RecursionError",)),
    "recursion_high_limit": Case("variance_proof", ("worked_example",), ("ended while running", "SIGSEGV")),
    "memory_at_import": Case("variance_proof", ("softmax",), ("raised MemoryError",)),
    "memory_in_call": Case("variance_proof", ("hand_scores",), ("raised MemoryError",)),
    "children": Case("softmax", ("variance_proof", "attention"), earns=None),
    "tamper_next_file": Case("hand_scores", ("softmax", "attention"), ("got None",)),
    "numpy_monkeypatch": Case("hand_scores", ("softmax",), ("should return a tuple of 2 values; got None",)),
    "forge_worker": Case("hand_scores", ("softmax",), ("could not be read", "ended or hung the worker too many times")),
    "forge_deep_json": Case("hand_scores", ("softmax",), ("unreadable message",)),
    "forge_huge_json": Case("hand_scores", ("softmax",), ("far more than any answer asked for",)),
    "forge_import_answer": Case("hand_scores", ("variance_proof",), ("malformed answer to the import",)),
    "ndarray_liar": Case("softmax", ("attention",), ("a subclass of ndarray",), UNCHANGED),
    "ndarray_disguised": Case("softmax", ("variance_proof",), ("should sum to 1",),  # an array of 7s
                              UNCHANGED + ("returns a float64 array of the input's shape, axis given by position or by "
                                           "name", "adding a constant along the axis changes nothing")),
    "sympy_liar": Case("variance_proof", ("softmax",), ("could not be read", "is not supported in an answer")),
    "eval_strings": Case("hand_scores", ("variance_proof",), ("could not be read",)),
    "nan_inf": Case("softmax", ("variance_proof",), ("contains NaN", "contains inf"), UNCHANGED),
    "dtype_object": Case("softmax", ("variance_proof",), ("dtype object",), UNCHANGED),
    "dtype_complex": Case("softmax", ("attention",), ("complex numbers",), UNCHANGED),
    "dtype_string": Case("softmax", ("variance_proof",), ("not numbers",), UNCHANGED),
    "wrong_shape": Case("softmax", ("variance_proof",), ("should have shape",), UNCHANGED),
    "huge_array": Case("softmax", ("variance_proof",), ("far larger than asked",), UNCHANGED),
    "flood_output": Case("softmax", ("variance_proof",), earns=None),
    "forge_results": Case("hand_scores", ("softmax",), ("got None",)),
    "proc_snoop": Case("hand_scores", ("softmax",), ("got None",)),
    "steal_solutions": Case("hand_scores", ("softmax",), ("got None",)),
    "syntax_error": Case("softmax", ("variance_proof",), ("has a syntax error at line 1",)),
    "empty_file": Case("softmax", ("worked_example",), ("softmax is not defined in softmax.py",)),
    "not_utf8": Case("softmax", ("hand_scores",), ("not valid UTF-8",)),
    "missing_function": Case("softmax", ("attention",), ("softmax is not defined in softmax.py",)),
}

# ---- Issue 9, round two: the parser's and the sandbox's side (bounded parsing, worker texts cut
# in the parent, the shown-text cache, memory and processes per sandbox, exercise files first, a
# tighter sandbox). Kept together; the batch-level students of that issue have a block of their own.
ROUND_TWO = {
    "costly_answers_hand": Case("hand_scores", ("softmax",), (
        "more than 1024 bits", "nested too deeply", "Float() takes a decimal number")),
    "costly_answers_variance": Case("variance_proof", ("softmax",), (
        "more than 1024 bits", "Float() takes a decimal number")),
    "eval_tuple_string": Case("hand_scores", ("variance_proof",), ("text is allowed in an answer only as",)),
    "forge_huge_message": Case("hand_scores", ("softmax",), ("more characters",)),
    "distinct_huge_arrays": Case("softmax", ("variance_proof",), ("should have shape",)),
    "memfd_hog": Case("softmax", ("variance_proof",), earns=None),
    "fork_hog": Case("softmax", ("attention",), earns=None),
    "process_flood": Case("softmax", ("worked_example",), earns=None),
    "nested_namespaces": Case("softmax", ("hand_scores",), earns=None),
    "host_paths": Case("hand_scores", ("softmax",), earns=None),
    "crowded_folder": Case("softmax", ("variance_proof", "worked_example", "attention"), earns=None),
}
CASES.update(ROUND_TWO)

# ---- Issue 35: a scratch folder on the host's disk (no namespaces) was bounded only file by file.
# Its bound holds in every setting (a tmpfs, or the init's measure: graders/sandbox/inside/scratch.py),
# and a call past it earns nothing, whatever it answers.
CASES.update({
    "scratch_flood": Case("softmax", ("variance_proof",), ("limit of 64 MB on what your code writes",)),
    "scratch_crowd": Case("softmax", ("worked_example",), ("limit of 2000 files and folders",)),
})


def _crowd(folder: Path):
    """70 helper modules and 1000 data files whose names sort before every exercise file's."""
    for i in range(70):
        shutil.copy(SOLUTIONS / "softmax.py", folder / f"00_helper_{i:02d}.py")
    for i in range(1000):
        (folder / f"000_data_{i:04d}.csv").write_text("0\n")


FILL = {"crowded_folder": _crowd}  # folder -> what else it holds
STUDENT_PRINTS = ("still here", "child was here", '"score": 66', "x" * 200)  # never on the runner's terminal
HOST_MEMORY_BOUND_MB = 4096  # what one hostile batch (2 jobs) may take in all; see the test
RESULTS_BOUND = 1 << 20  # bytes of one results.json

# Honest students: every file a copy of a solution, or a mix of mutants, alternatives and solutions.
HONEST = {
    "honest_solutions": {p.stem: p for p in sorted(SOLUTIONS.glob("*.py"))},
    "honest_mix": {
        "hand_scores": HERE / "mutants" / "hand_scores" / "floats_math.py",
        "variance_proof": HERE / "mutants" / "variance_proof" / "divide_by_dk.py",
        "worked_example": HERE / "mutants" / "worked_example" / "never_scales.py",
        "softmax": HERE / "mutants" / "softmax" / "no_max_shift.py",
        "attention": HERE / "alternatives" / "attention" / "einsum_masked_fill.py",
        "multi_head": SOLUTIONS / "multi_head.py",
    },
}

SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis"}


# ------------------------------------------------------------------ the runner (a child process)
PR_SET_CHILD_SUBREAPER = 36


def _children(pid):
    """(pid, state, uid, cmdline) of the processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            status = Path(f"/proc/{entry}/status").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == pid:
            uid = int(status.split("Uid:")[1].split()[0])
            found.append((int(entry), fields[0], uid, cmd.strip()))
    return found


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class MemoryWatch:
    """A memory cgroup of the runner's own, below its cgroup: every process of the batch is
    charged there (their sandboxes' cgroups are below it, tmpfs and shared memory included),
    so its peak is what the batch took of the host's memory. cgroup v1, or v2 where memory
    is handed down; elsewhere ``why`` says why there is no figure."""

    def __init__(self):
        from graders.sandbox.inside import cgroups

        self.dir = self.base = None
        mounts, own = cgroups._mounts(), cgroups._own_paths()
        if "memory" in mounts and "memory" in own:
            self.base, self.peak = os.path.join(mounts["memory"], own["memory"].lstrip("/")), "memory.max_usage_in_bytes"
        elif "cgroup2" in mounts and "" in own:
            self.base, self.peak = os.path.join(mounts["cgroup2"], own[""].lstrip("/")), "memory.peak"
        self.why = "" if self.base else "no memory cgroup controller"

    def start(self):
        if not self.base:
            return
        try:
            self.dir = os.path.join(self.base, f"attn-hostile-{os.getpid()}")
            os.mkdir(self.dir)
            Path(self.dir, "cgroup.procs").write_text(str(os.getpid()))
        except OSError as exc:
            self.dir, self.why = None, f"no memory cgroup of our own ({exc.strerror})"

    def stop(self):
        """(peak MB or None, cgroup folders left below ours by the batch)."""
        if not self.dir:
            return None, []
        try:
            peak = int(Path(self.dir, self.peak).read_text()) / 2**20
        except (OSError, ValueError) as exc:
            peak, self.why = None, f"no peak figure ({exc})"
        Path(self.base, "cgroup.procs").write_text(str(os.getpid()))
        deadline = time.monotonic() + 10  # sandboxes end, and their cgroups go, just after the batch
        while time.monotonic() < deadline and any(d != self.dir for d, _, _ in os.walk(self.dir)):
            time.sleep(0.1)
        left = sorted(str(Path(d).relative_to(self.dir)) for d, _, _ in os.walk(self.dir) if d != self.dir)
        for d, _, _ in sorted(os.walk(self.dir), key=lambda w: -len(w[0])):  # the deepest first
            for pid in Path(d, "cgroup.procs").read_text().split():
                os.kill(int(pid), signal.SIGKILL)
            try:
                os.rmdir(d)
            except OSError:
                time.sleep(0.2)
                os.rmdir(d)
        return peak, left


def run_batch(cfg) -> dict:
    """Grade cfg["submissions"] into cfg["out"]; report the time, what is left running and the
    memory the batch took."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return {"error": "cannot become a child subreaper", "seconds": 0.0, "leftover": []}
    from graders.batch import run as batch

    watch = MemoryWatch()
    watch.start()
    start = time.monotonic()
    error = None
    try:
        batch.run(batch.Options(Path(cfg["submissions"]), Path(cfg["out"]), jobs=cfg["jobs"],
                                timeout=cfg["timeout"], progress=False), say=lambda *a, **k: None)
    except BaseException:  # noqa: BLE001 - reported, the test fails on it
        error = traceback.format_exc()
    seconds = time.monotonic() - start
    me, deadline = os.getpid(), time.monotonic() + cfg["grace"]
    while True:  # zygotes end when their grading process has gone; allow them a moment
        _reap()
        alive = [c for c in _children(me) if c[1] != "Z"]
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for pid, *_ in alive:  # clean up what this runner's batch left behind
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.2)
    _reap()
    peak, cgroups_left = watch.stop()
    return {"error": error, "seconds": seconds, "leftover": alive, "peak_mb": peak, "memory_why": watch.why,
            "cgroups_left": cgroups_left}


# ------------------------------------------------------------------ building the class
def _fill(data: bytes, values: dict) -> bytes:
    for key, value in values.items():
        data = data.replace(f"@@{key}@@".encode(), value.encode())
    return data


def _students():
    return sorted([*CASES, *HONEST])


def build_class(subs: Path, values: dict):
    for case, spec in CASES.items():
        folder = subs / case
        folder.mkdir(parents=True)
        for path in sorted((HOSTILE / case).iterdir()):
            if path.suffix == ".py":
                (folder / path.name).write_bytes(_fill(path.read_bytes(), values))
        for slug in spec.honest:
            shutil.copy(SOLUTIONS / f"{slug}.py", folder / f"{slug}.py")
        if case in FILL:
            FILL[case](folder)
    build_honest(subs)


def build_honest(subs: Path):
    for name, files in HONEST.items():
        (subs / name).mkdir(parents=True)
        for slug, source in files.items():
            shutil.copy(source, subs / name / f"{slug}.py")


def digest(top: Path) -> dict:
    """sha256 of every file below ``top`` (symbolic links by their target), skipping caches."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in filenames:
            path = Path(dirpath, name)
            if path.is_symlink():
                out[str(path)] = "-> " + os.readlink(path)
            else:
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def start_runner(cfg, tmp: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(Path(__file__).resolve()), json.dumps(cfg)], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish_runner(proc: subprocess.Popen) -> dict:
    try:
        out, err = proc.communicate(timeout=BATCH_BOUND + 120)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    lines = out.strip().splitlines()
    assert proc.returncode == 0 and lines, f"the runner failed:\n{out[-3000:]}\n{err[-3000:]}"
    return dict(json.loads(lines[-1]), printed=out[:-len(lines[-1]) - 1][-5000:], stderr=err[-5000:])


# ------------------------------------------------------------------ the tests
POINTS = {e.slug: e.points for e in registry.EXERCISES}


def grade_everything(tmp: Path) -> dict:
    """Build the class in ``tmp``, run the hostile and the clean batch, and report (as JSON data)."""
    subs, out = tmp / "submissions", tmp / "out"
    clean_subs, clean_out = tmp / "clean-submissions", tmp / "clean-out"
    marker = tmp / "pwned-marker"
    values = {"OUT": str(out), "SUBMISSIONS": str(subs), "REPO": str(ROOT), "MARKER": str(marker),
              "STUDENTS": ",".join(_students())}
    build_class(subs, values)
    build_honest(clean_subs)
    pwned_before = PWNED.exists()
    before = {"repo": digest(ROOT), "subs": digest(subs)}
    # The clean batch runs alongside: the hostile one spends much of its time waiting for timeouts.
    runners = [start_runner({"submissions": str(where), "out": str(dest), "jobs": JOBS, "timeout": TIMEOUT,
                             "grace": GRACE}, tmp) for where, dest in ((subs, out), (clean_subs, clean_out))]
    report, clean = [finish_runner(r) for r in runners]
    after = {"repo": digest(ROOT), "subs": digest(subs)}
    return {"out": str(out), "clean_out": str(clean_out), "marker": str(marker), "report": report,
            "clean": clean, "before": before, "after": after, "pwned_before": pwned_before}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The batch, run once per test session even when pytest-xdist spreads this module over
    several processes: the first to get here grades, the others read its report."""
    _, data = once_per_session(tmp_path_factory, "hostile", grade_everything)
    return dict(data, out=Path(data["out"]), clean_out=Path(data["clean_out"]), marker=Path(data["marker"]))


def _results(graded, student, out="out"):
    return json.loads((graded[out] / "students" / student / "results.json").read_text(encoding="utf-8"))


def _tests(graded, student, slug):
    return [t for t in _results(graded, student)["tests"] if t["exercise"] == slug]


def test_the_batch_finishes_in_bounded_time_and_grades_everyone(graded):
    for name in ("report", "clean"):
        report = graded[name]
        assert report["error"] is None, f"the {name} batch crashed:\n{report['error']}"
        assert report["seconds"] < BATCH_BOUND, f"the {name} batch took {report['seconds']:.0f} s"
    with open(graded["out"] / "gradebook.csv", newline="", encoding="utf-8") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert sorted(rows) == _students()
    for student, row in rows.items():
        data = _results(graded, student)
        assert {t["exercise"] for t in data["tests"]} == set(POINTS)
        assert float(row["total"]) == pytest.approx(data["score"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_attacked_exercise_earns_only_what_its_honest_output_earns(graded, case):
    spec = CASES[case]
    tests = _tests(graded, case, spec.slug)
    score = sum(t["score"] for t in tests)
    if spec.earns is None:
        assert score == POINTS[spec.slug], [(t["name"], t["output"]) for t in tests if t["score"] < t["max_score"]]
        return
    prefix = f"{spec.slug}: "
    scored = {t["name"][len(prefix):] for t in tests if t["score"] > 0}
    assert scored == set(spec.earns), f"{case} scored {score} on {sorted(scored)}"
    assert score == sum(t["max_score"] for t in tests if t["name"][len(prefix):] in spec.earns)


@pytest.mark.parametrize("case", sorted(c for c in CASES if CASES[c].words))
def test_the_feedback_names_the_cause(graded, case):
    spec = CASES[case]
    text = "\n".join(t["output"] for t in _tests(graded, case, spec.slug))
    for words in spec.words:
        assert words in text, f"expected {words!r} in the feedback for {case}/{spec.slug}.py:\n{text}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_other_exercises_of_a_hostile_student_are_unaffected(graded, case):
    spec = CASES[case]
    for slug in spec.honest:
        tests = _tests(graded, case, slug)
        lost = [(t["name"], t["output"]) for t in tests if t["score"] < t["max_score"]]
        assert sum(t["score"] for t in tests) == POINTS[slug] and not lost, lost
    for slug in set(POINTS) - set(spec.honest) - {spec.slug}:  # not handed in
        assert all(t["score"] == 0 and "was not found" in t["output"] for t in _tests(graded, case, slug))


@pytest.mark.parametrize("student", sorted(HONEST))
def test_honest_students_get_what_they_get_in_a_clean_batch(graded, student):
    hostile, clean = _results(graded, student), _results(graded, student, "clean_out")
    differ = [(a["name"], a["score"], a["output"][-300:], b["score"], b["output"][-300:])
              for a, b in zip(hostile["tests"], clean["tests"]) if a != b]
    assert hostile == clean, f"differ (name, score, output in the hostile batch, then in the clean one): {differ}"
    if student == "honest_solutions":
        assert _results(graded, student)["score"] == sum(POINTS.values())


@pytest.mark.parametrize("batch", ["report", "clean"])
def test_no_process_is_left_running(graded, batch):
    assert graded[batch]["leftover"] == [], "still running after the batch (pid, state, uid, command)"


@pytest.mark.parametrize("batch", ["report", "clean"])
def test_nothing_the_students_print_reaches_the_terminal(graded, batch):
    report = graded[batch]
    assert report["printed"].strip() == "", f"printed before the report: {report['printed'][-500:]!r}"
    shown = [p for p in STUDENT_PRINTS if p in report["stderr"]]
    assert not shown, f"student output on stderr: {shown} in {report['stderr'][-1000:]!r}"


def test_no_results_file_is_larger_than_a_megabyte(graded):
    sizes = {p.parent.name: p.stat().st_size for p in graded["out"].glob("students/*/results.json")}
    assert len(sizes) == len(_students())
    large = {name: size for name, size in sizes.items() if size > RESULTS_BOUND}
    assert not large, large


def test_the_host_memory_the_batch_takes_stays_bounded(graded):
    """The memory the whole batch was charged at its peak (its processes, their sandboxes'
    tmpfs and shared memory): before the sandboxes were bounded as a whole, a batch of
    fork_hog and one honest student peaked at 3072 MB, and of memfd_hog at 2436 MB."""
    peak, clean = graded["report"]["peak_mb"], graded["clean"]["peak_mb"]
    if peak is None:
        pytest.skip(f"no memory figure on this machine: {graded['report']['memory_why']}")
    print(f"peak memory: hostile batch {peak:.0f} MB, clean batch {clean:.0f} MB")
    assert peak < HOST_MEMORY_BOUND_MB, f"the hostile batch took {peak:.0f} MB (the clean one {clean:.0f} MB)"


@pytest.mark.parametrize("batch", ["report", "clean"])
def test_no_cgroup_is_left_behind(graded, batch):
    assert graded[batch]["cgroups_left"] == []


def test_no_file_outside_the_output_folder_changes(graded):
    for where in ("repo", "subs"):
        before, after = graded["before"][where], graded["after"][where]
        changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
        assert not changed, f"files changed in {where}: {changed[:20]}"
    assert not graded["marker"].exists(), graded["marker"].read_text()
    if not graded["pwned_before"]:
        assert not PWNED.exists()
    written = {str(p.relative_to(graded["out"])) for p in graded["out"].rglob("*") if p.is_file()}
    assert written == {"gradebook.csv", *(f"students/{s}/results.json" for s in _students())}


if __name__ == "__main__":
    print(json.dumps(run_batch(json.loads(sys.argv[1]))))
