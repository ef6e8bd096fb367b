"""The learner's loop: list with progress, hints, forgiving names and folders, and what
happens with the wrong Python."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders import registry
from graders.cli import main
from graders.cli.hint import hints_of
from graders.cli.progress import public_points
from graders.grading.engine import ROOT, points_of

HERE = Path(__file__).parent
LESSONS = ROOT / "course" / "lessons"


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def folder(tmp_path):
    """A learner's exercises folder: the stubs."""
    work = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises", work)
    return work


def solve(folder, slug, source=None):
    shutil.copy(source or ROOT / "solutions" / f"{slug}.py", folder / f"{slug}.py")


# ------------------------------------------------------------------ list
def test_list_shows_done_partial_and_not_started_and_what_is_next(folder, capsys):
    solve(folder, "hand_scores")
    solve(folder, "softmax")
    solve(folder, "attention", HERE / "mutants" / "attention" / "no_scaling.py")
    code, _, _ = run(capsys, "check", "hand_scores", "softmax", "attention", "worked_example", "--dir", folder)
    assert code == 1
    _, out, _ = run(capsys, "list", "--dir", folder, "--color", "never")
    lines = {line.split()[2]: line for line in out.splitlines() if re.match(r"\s+\d\. ", line)}
    assert lines["hand_scores"].split()[1:4] == ["✓", "hand_scores", "8/8"]
    mark, points = lines["attention"].split()[1], lines["attention"].split()[3]
    got, total = points.split("/")
    assert mark == "◐" and 0 < float(got) < 14 and total == "14"
    assert lines["worked_example"].split()[1:4] == ["✗", "worked_example", "0/8"]
    assert lines["multi_head"].split()[1:4] == ["·", "multi_head", "–/12"]
    assert "lesson 4" in lines["attention"] and "lesson 1" in lines["hand_scores"]
    assert out.strip().splitlines()[-1].startswith("next: variance_proof — read lesson 2")


def test_list_says_when_a_file_changed_since_its_last_check(folder, capsys):
    solve(folder, "softmax")
    run(capsys, "check", "softmax", "--dir", folder)
    (folder / "softmax.py").write_text((folder / "softmax.py").read_text() + "\n# more\n")
    _, out, _ = run(capsys, "list", "--dir", folder, "--color", "never")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "softmax " in line)
    assert "edited since" in " ".join(lines[at:at + 2])  # on the row, or under it where the row is full


def test_progress_is_kept_per_folder(folder, tmp_path, capsys):
    other = tmp_path / "other" / "exercises"
    shutil.copytree(folder, other)
    solve(folder, "softmax")
    run(capsys, "check", "softmax", "--dir", folder)
    _, mine, _ = run(capsys, "list", "--dir", folder, "--color", "never")
    _, theirs, _ = run(capsys, "list", "--dir", other, "--color", "never")
    assert "✓ softmax" in mine and "✓" not in theirs


def test_a_full_marks_check_names_the_next_exercise_and_its_lesson(folder, capsys):
    solve(folder, "hand_scores")
    code, out, _ = run(capsys, "check", "hand_scores", "--dir", folder)
    assert code == 0
    assert out.strip().splitlines()[-1].startswith(
        "next: variance_proof — read lesson 2 (") and "02_why_scale_by_sqrt_dk.ipynb" in out


def test_a_check_that_loses_points_offers_a_hint(folder, capsys):
    code, out, _ = run(capsys, "check", "softmax", "--dir", folder)
    assert code == 1 and "'attn-grade hint softmax'" in out.strip().splitlines()[-1]


def test_public_points_read_from_the_source_equal_the_graders_points():
    for e in registry.EXERCISES:
        assert public_points(e.slug) == points_of(e.slug)[0], e.slug


# ------------------------------------------------------------------ hints
def test_hints_come_one_at_a_time_and_start_over_with_reset(folder, capsys):
    total = len(hints_of("softmax").hints)
    seen = []
    for _ in range(total + 1):
        code, out, _ = run(capsys, "hint", "softmax", "--dir", folder)
        assert code == 0
        seen.append(re.findall(r"^Hint (\d+) of (\d+) for softmax", out, re.M))
    assert seen[:total] == [[(str(n), str(total))] for n in range(1, total + 1)]
    assert seen[total] == [(str(total), str(total))] and "That was the last hint" in out
    run(capsys, "hint", "softmax", "--reset", "--dir", folder)
    _, out, _ = run(capsys, "hint", "softmax", "--dir", folder)
    assert re.findall(r"^Hint (\d+) of", out, re.M) == ["1"]
    _, out, _ = run(capsys, "hint", "softmax", "--all", "--dir", folder)
    assert re.findall(r"^Hint (\d+) of", out, re.M) == ["1", "2"]


def test_a_hint_without_an_exercise_is_for_the_first_one_not_done(folder, capsys):
    solve(folder, "hand_scores")
    run(capsys, "check", "hand_scores", "--dir", folder)
    _, out, _ = run(capsys, "hint", "--dir", folder)
    assert out.startswith("Hint 1 of") and "for variance_proof" in out.splitlines()[0]


def _headings(notebook: Path) -> set:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return {m.group(1).strip() for m in re.finditer(r"^#+\s+(.+)$", text, re.M)}


@pytest.mark.parametrize("slug", [e.slug for e in registry.EXERCISES])
def test_every_exercise_has_hints_that_point_to_a_lesson_section(slug):
    hints = hints_of(slug)
    assert len(hints.hints) >= 3
    assert (LESSONS / hints.lesson).is_file()
    for hint in hints.hints:
        assert hint.section in _headings(LESSONS / hint.notebook), (hint.notebook, hint.section)
        assert len(hint.text) > 80


@pytest.mark.parametrize("slug", [e.slug for e in registry.EXERCISES])
def test_every_stub_names_its_lesson(slug):
    stub = (ROOT / "exercises" / f"{slug}.py").read_text(encoding="utf-8")
    m = re.search(r"^Read first: lesson (\d+), course/lessons/(\S+\.ipynb)\.$", stub, re.M)
    assert m and m.group(2) == hints_of(slug).lesson and m.group(2).startswith(f"{int(m.group(1)):02d}_")


def test_no_hint_leaks_an_answer():
    from graders.classroom.release.leaks import find_leaks

    assert find_leaks(ROOT / "graders" / "hints") == []


# ------------------------------------------------------------------ names and folders
@pytest.mark.parametrize("word, words", [
    ("softmx", "did you mean softmax?"),
    ("attn", "did you mean attention?"),
    (str(len(registry.EXERCISES) + 1), f"numbered 1 to {len(registry.EXERCISES)}"),
    ("banana", "the exercises are: hand_scores"),
    ("sofmax.py", "did you mean softmax.py?"),
])
def test_near_misses_get_a_suggestion(folder, capsys, word, words):
    code, _, err = run(capsys, "check", word, "--dir", folder)
    assert code == 2 and words in err
    assert "usage:" not in err  # the suggestion alone, not buried under the command's usage


def test_the_learners_lines_fit_80_columns(folder, capsys, monkeypatch):
    from graders.cli.term import fit

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "list", "--dir", folder)
    rows = [line for line in out.splitlines() if line.startswith("  ")]  # one per exercise
    assert code == 0 and len(rows) == len(registry.EXERCISES) and max(len(line) for line in rows) <= 80, out
    said = fit("next: hand_scores — read lesson 1 (../course/lessons/01_queries_keys_values.ipynb), "
               "then 'attn-grade check hand_scores'", stream=Terminal())
    assert max(len(line) for line in said.splitlines()) <= 80 and len(said.splitlines()) > 1
    assert "'attn-grade check hand_scores'" in said.splitlines()[-1]  # a command is never split


def test_a_students_check_fits_80_columns_header_included(folder, capsys, monkeypatch):
    """In a student's copy (no hidden checks) the first line says so; every line of a check of
    every stub fits a terminal 80 columns wide."""
    from graders.cli import progress
    from graders.grading import report
    from graders.terminal import wrap

    for module in (report, wrap):  # the report's lines, and what the command says at its end
        monkeypatch.setattr(module, "terminal_width", lambda stream=None: 80)
    monkeypatch.setattr(progress, "has_hidden", lambda: False)
    code, out, _ = run(capsys, "check", "--dir", folder)
    assert code == 1 and out.startswith("Public checks only:")
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, wide


def test_a_misnamed_file_is_named_with_what_to_rename_it_to(folder, capsys):
    (folder / "softmax.py").rename(folder / "Softmax.py")
    code, _, err = run(capsys, "check", folder / "Softmax.py")
    assert code == 2 and "rename the file to softmax.py" in err
    code, out, _ = run(capsys, "check", "softmax", "--dir", folder)
    assert code == 1 and "softmax.py was not found" in out and "there is Softmax.py" in out
    assert "rename it to softmax.py" in out


@pytest.mark.parametrize("word", ["5", "softmax", "Softmax", "exercises/softmax.py"])
def test_an_exercise_by_number_slug_or_path(folder, capsys, monkeypatch, word):
    monkeypatch.chdir(folder.parent)
    solve(folder, "softmax")
    code, out, _ = run(capsys, "check", word)
    assert code == 0 and "Total: 10/10" in out


def _cli(cwd, *argv, env=None, python=sys.executable):
    return subprocess.run([python, "-m", "graders.cli", *argv], cwd=cwd, capture_output=True, text=True,
                          env=env or {**os.environ, "NO_COLOR": "1"}, timeout=120)


@pytest.mark.parametrize("where", ["exercises", "exercises/..", "deep/inside/the/project"])
def test_the_exercises_folder_is_found_from_anywhere_in_the_project(folder, where):
    solve(folder, "softmax")
    cwd = folder.parent / where
    cwd.mkdir(parents=True, exist_ok=True)
    done = _cli(cwd, "check", "softmax")
    assert done.returncode == 0 and "Total: 10/10" in done.stdout, done.stderr


def test_outside_the_project_it_says_where_it_looked(tmp_path):
    done = _cli(tmp_path, "check", "softmax")
    assert done.returncode == 2 and "no exercises/ folder in" in done.stderr and "--dir" in done.stderr


def test_without_the_libraries_it_says_how_to_activate_the_environment(tmp_path):
    """Python without site-packages (as a system Python without numpy would be)."""
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "NO_COLOR": "1",
           "ATTN_GRADE_RUNTIME": os.environ["ATTN_GRADE_RUNTIME"]}  # conftest.py: the zygote is ended at the end
    done = subprocess.run([sys.executable, "-S", "-m", "graders.cli", "check", "softmax"], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "attn-grade needs numpy" in done.stderr and "activate" in done.stderr


def _pyenv_pythons(pattern: str) -> list:
    """pyenv's Pythons matching ``pattern``, newest first; none where /root is closed (an ordinary user)."""
    try:
        return sorted(Path("/root/.pyenv/versions").glob(pattern), reverse=True)
    except OSError:
        return []


OLD_PYTHON = _pyenv_pythons("3.[7-9].*/bin/python3") + \
    [Path(p) for p in (shutil.which("python3.9"), shutil.which("python3.8")) if p]


@pytest.mark.skipif(not OLD_PYTHON, reason="no Python older than 3.10 on this machine")
def test_an_old_python_is_refused_with_a_message():
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "ATTN_GRADE_RUNTIME": os.environ["ATTN_GRADE_RUNTIME"]}
    for python in OLD_PYTHON[:1]:
        for argv in (["-m", "graders.cli", "list"], [str(ROOT / "tasks.py"), "setup"]):
            done = subprocess.run([str(python), *argv], cwd=ROOT, capture_output=True, text=True, env=env)
            assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
            assert "needs Python 3.10 or newer" in done.stderr


def test_help_starts_from_the_lessons_and_never_points_at_the_solutions():
    for argv in ([], ["check"], ["watch"], ["hint"], ["list"]):
        out = _cli(ROOT, *argv, "--help").stdout
        assert "solutions" not in out, argv
    assert "course/lessons" in _cli(ROOT, "--help").stdout


def test_the_bundles_list_counts_the_public_points_only(tmp_path):
    import sysconfig

    bundle = tmp_path / "bundle"
    assert main(["release", str(bundle)]) == 0
    paths = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-S", "-m", "attn_checks.cli", "list"], cwd=bundle, env=env,
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for e in registry.EXERCISES:
        line = next(line for line in out.splitlines() if f" {e.slug} " in line)
        assert f"–/{points_of(e.slug)[0]:g} " in line, line
        assert f"{e.slug}  " in line, f"no gap between the name and the points: {line!r}"
        rows.append(line)
    assert len({line.index(" lesson ") for line in rows}) == 1, "\n".join(rows)  # one column each
    assert max(len(line) for line in rows) <= 80, out
    assert "points of the public checks" in out


def test_a_check_run_as_a_command_remembers_its_result_and_exits_with_its_status(folder):
    # check ends with os._exit (QUICK_EXIT): its output and the learner's state must be complete first
    solve(folder, "softmax")
    done = _cli(folder.parent, "check", "softmax")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("then 'attn-grade check hand_scores'"), done.stdout
    listed = _cli(folder.parent, "list")
    assert listed.returncode == 0 and "next: hand_scores" in listed.stdout
    assert any("softmax" in line and "✓" in line for line in listed.stdout.splitlines()), listed.stdout
    assert _cli(folder.parent, "check", "attention").returncode == 1  # a stub: marks missing


def test_a_reader_that_goes_away_gets_no_traceback(folder):
    proc = subprocess.Popen([sys.executable, "-m", "graders.cli", "check"], cwd=folder.parent, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdout.readline()  # the first line, then we hang up (as `| head -1` does)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 1 and "Traceback" not in err, err
    listed = _cli(folder.parent, "list").stdout  # what was graded before the reader left is remembered
    first = next(line for line in listed.splitlines() if "hand_scores" in line)
    assert "✗" in first and "·" not in first, listed


def test_an_unknown_argument_shows_the_usage_of_the_command_it_was_given_to(tmp_path):
    for argv, verb in ((["stop", "extra"], "stop"), (["list", "--bogus"], "list"), (["hint", "a", "b"], "hint")):
        done = _cli(tmp_path, *argv)
        assert done.returncode == 2 and done.stderr.startswith(f"usage: attn-grade {verb} "), (argv, done.stderr)
        assert "unrecognized arguments" in done.stderr


@pytest.mark.parametrize("verb", ["check", "list", "hint"])
def test_a_folder_deleted_under_the_learner_is_named_not_a_traceback(tmp_path, verb):
    gone = tmp_path / "gone"
    gone.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && exec "$2" -m graders.cli "$3"', "sh", str(gone),
                           sys.executable, verb], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "no longer exists" in done.stderr and "cd into the project" in done.stderr
