"""A scaffold that passes its own tests (issue 36): ``attn-grade course new`` run in a copy of the
repository's tracked files, and there the commands of docs/writing-a-grader.md's "Testing one
exercise", for the new exercise: its stub scores 0 without crashing the grader, its solution (once
its bodies are written) full marks, docs/contract.md states its functions, every call stays inside its
DOMAIN, the house rules hold, its hints point to a lesson's sections and its stub names that lesson;
the placeholder lesson is named as one and keeps the lessons' rules. Only the count of its mutants and
alternatives fails: they are the author's to write. And a failing submission is offered the hints, as
every other exercise's is, not a traceback.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a copy of the repository, and a run of pytest inside it

ROOT = Path(__file__).resolve().parent.parent
SLUG = "demo_ex"
FUNCTIONS = ("double", "halve")
BODIES = {"double": "return np.asarray(x, dtype=np.float64) * 2.0",
          "halve": "return np.asarray(x, dtype=np.float64) / 2.0"}
GUIDE = ROOT / "docs" / "writing-a-grader.md"
# the placeholder's number: the next lesson's
LESSON = f"{1 + max(int(p.name[:2]) for p in (ROOT / 'course' / 'lessons').glob('[0-9][0-9]_*.ipynb')):02d}"
# Of the tests the guide's commands run, those a grader is trusted by, that must pass at once.
TRUSTED = [f"tests/test_graders.py::{t}[{SLUG}]" for t in (
    "test_check_points_add_up_to_the_registry", "test_hidden_checks_live_only_in_graders_hidden",
    "test_reference_solution_scores_full_marks", "test_stub_scores_zero_without_crashing_the_grader",
    "test_feedback_asks_no_questions", "test_grading_twice_gives_identical_results")] + [
    f"tests/test_contract.py::test_every_stub_has_the_contracts_names_parameters_and_defaults[{SLUG}]",
    f"tests/test_domain.py::test_every_call_of_every_check_lies_inside_the_stubs_promise[{SLUG}]",
    f"tests/test_learner.py::test_every_exercise_has_hints_that_point_to_a_lesson_section[{SLUG}]",
    f"tests/test_learner.py::test_every_stub_names_its_lesson[{SLUG}]",
    "tests/test_learner.py::test_no_hint_leaks_an_answer",
    "tests/test_layout.py::test_the_house_has_its_rooms",
    f"tests/test_layout.py::test_imports_point_one_way[graders.{SLUG}]",
    f"tests/test_layout.py::test_imports_point_one_way[graders.hidden.{SLUG}]",
    f"tests/test_layout.py::test_hidden_graders_use_only_public_names[{SLUG}.py]",
]
UNWRITTEN = f"tests/test_graders.py::test_corpus_has_enough_mutants_and_alternatives[{SLUG}]"  # the author's to write


def _guides_commands() -> list[str]:
    """The command lines of the guide's "Testing one exercise", for the exercise ``rope``."""
    part = GUIDE.read_text(encoding="utf-8").split("\n## Testing one exercise\n", 1)[1]
    block = part.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.startswith(".venv/bin/python -m pytest ")]


def _env(root: Path, runtime: str, cache: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "ATTN_GRADE_"))}
    env.update(PYTHONPATH=str(root), ATTN_GRADE_RUNTIME=runtime)
    if not cache:
        env["ATTN_GRADE_CACHE"] = "off"
    return env


def _cli(root: Path, runtime: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "graders.cli", *args], cwd=root, env=_env(root, runtime),
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """(root, runtime, what course new printed): a copy of the tracked files with the exercise made."""
    # the tracked files, and new ones not yet committed (never those .gitignore names), as the work tree has them
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode or not listed.stdout:
        pytest.skip("not a git checkout")
    root = tmp_path_factory.mktemp("scaffolded") / "project"
    for rel in filter(None, listed.stdout.split("\0")):
        if (ROOT / rel).is_file():  # a file deleted in the work tree is not copied
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, root / rel)
    runtime = tempfile.mkdtemp(prefix="attn-rt-")  # short: a socket's path has at most 107 bytes
    made = _cli(root, runtime, "course", "new", SLUG, "--title", "A demo exercise", "--assignment",
                "part3_attention", "--functions", ",".join(FUNCTIONS), "--root", str(root))
    assert made.returncode == 0, made.stdout + made.stderr
    solution = root / "solutions" / f"{SLUG}.py"
    text = solution.read_text(encoding="utf-8")
    for name, body in BODIES.items():
        text = text.replace(f'raise NotImplementedError("{name} (the reference solution) is not written yet")', body)
    assert "NotImplementedError" not in text
    solution.write_text(text, encoding="utf-8")
    yield root, runtime, made.stdout
    from graders.sandbox import resident

    resident.stop(Path(runtime))
    shutil.rmtree(runtime, ignore_errors=True)


def test_course_new_says_the_exercise_has_no_lesson_yet_and_which_tests_to_run(project):
    root, _, said = project
    assert re.search(rf"^NO LESSON YET: course/lessons/{LESSON}_{SLUG}\.ipynb is a placeholder", said, re.M), said
    for rel in ("docs/contract.md", "course/lessons/README.md", f"course/lessons/{LESSON}_{SLUG}.ipynb"):
        assert f"wrote {rel}\n" in said, rel
    commands = _guides_commands()
    assert len(commands) == 2 and all(f"  {c.replace('rope', SLUG)}\n" in said for c in commands), said


def _pytest(root: Path, runtime: str, line: str) -> tuple[subprocess.CompletedProcess, dict]:
    """Run one of the guide's commands in ``root``, for the new exercise: (the run, {node id: outcome})."""
    args = shlex.split(line.replace("rope", SLUG))[1:]  # this interpreter, not .venv/bin/python
    proc = subprocess.run([sys.executable, *args, "-p", "no:cacheprovider", "-v", "-rs"], cwd=root,
                          env=_env(root, runtime, cache=True), capture_output=True, text=True, timeout=900)
    return proc, dict(re.findall(r"^(tests/\S+) (PASSED|FAILED|SKIPPED|ERROR)", proc.stdout, re.M))


def test_the_guides_tests_pass_for_the_new_exercise_but_for_its_mutants_count(project):
    root, runtime, _ = project
    outcomes, runs = {}, []
    for line in _guides_commands():
        proc, seen = _pytest(root, runtime, line)
        outcomes.update(seen)
        runs.append(proc.stdout[-4000:] + proc.stderr[-2000:])
    failed = sorted(t for t, outcome in outcomes.items() if outcome in ("FAILED", "ERROR"))
    assert failed == [UNWRITTEN], "\n".join(runs)
    assert all(outcomes.get(t) == "PASSED" for t in TRUSTED), [t for t in TRUSTED if outcomes.get(t) != "PASSED"]
    assert outcomes["tests/test_scaffold_lessons.py::test_every_lesson_is_written"] == "SKIPPED"
    assert re.search(rf"SKIPPED .*no lesson yet for {SLUG}: course/lessons/{LESSON}_{SLUG}\.ipynb", runs[-1]), runs[-1]


def test_the_placeholder_lesson_keeps_the_lessons_rules(project):
    """Stored without outputs, listed in the lessons' README, numbered next (run in a kernel: -m system)."""
    root, runtime, _ = project
    proc, seen = _pytest(root, runtime, '.venv/bin/python -m pytest -m "" tests/test_lessons.py -k "not runs_top"')
    assert proc.returncode == 0 and f"tests/test_lessons.py::test_stored_without_outputs[{LESSON}_{SLUG}.ipynb]" in seen, \
        proc.stdout[-4000:]


def test_a_failing_submission_is_offered_the_hints_not_a_traceback(project, tmp_path):
    root, runtime, _ = project
    folder = tmp_path / "exercises"
    folder.mkdir()
    stub = (root / "exercises" / f"{SLUG}.py").read_text(encoding="utf-8")
    (folder / f"{SLUG}.py").write_text(stub.replace('raise NotImplementedError("double is not written yet")',
                                                    "return [0.0]"), encoding="utf-8")
    checked = _cli(root, runtime, "check", SLUG, "--dir", str(folder))
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stdout + checked.stderr
    assert f"hint {SLUG}" in checked.stdout.strip().splitlines()[-1], checked.stdout
    hinted = _cli(root, runtime, "hint", SLUG, "--dir", str(folder))
    assert hinted.returncode == 0 and re.search(rf"^Hint 1 of \d+ for {SLUG}", hinted.stdout, re.M), \
        hinted.stdout + hinted.stderr


def test_a_release_is_refused_while_a_lesson_is_a_placeholder(tmp_path, monkeypatch, capsys):
    from graders.classroom.release import release
    from graders.classroom.authoring import scaffold

    lessons = tmp_path / "course" / "lessons"
    lessons.mkdir(parents=True)
    (lessons / "06_demo_ex.ipynb").write_text(scaffold.placeholder_lesson(6, "demo_ex", "Demo", ["1. A"]))
    monkeypatch.setattr(release, "ROOT", tmp_path)
    for folder in ("exercises", "course/lessons"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("")
    from graders.cli import main

    with pytest.raises(SystemExit) as info:
        main(["release", str(tmp_path / "out")])
    assert info.value.code == 2 and "demo_ex still point(s) to a placeholder lesson (06_demo_ex.ipynb" in \
        capsys.readouterr().err
    assert not (tmp_path / "out").exists()
