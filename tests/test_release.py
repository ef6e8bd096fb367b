"""The student bundle (`attn-grade release`) and the no-leak scanner (graders/leaks.py)."""

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.release import leaks, withheld
from graders.cli import main
from graders.grading.engine import checks_of, reference
from graders.classroom.release.public import INSTRUCTOR_ONLY, copy_public
from graders.classroom.release.release import COMMAND, PACKAGE

ROOT = Path(__file__).resolve().parent.parent
PUBLIC_POINTS = sum(c.spec.points for e in registry.EXERCISES for c in checks_of(e.slug, hidden=False))


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "bundle"
    assert main(["release", str(out)]) == 0  # 0: the release's own leak scan found nothing
    return out


@pytest.fixture(scope="module")
def needles():
    return withheld.all_needles()


@pytest.fixture
def copy(bundle, tmp_path):
    """A copy of the bundle to plant leaks in."""
    return Path(shutil.copytree(bundle, tmp_path / "copy"))


def run_check(cwd: Path) -> subprocess.CompletedProcess:
    """`python -m attn_checks.cli check` from the bundle, seeing only the bundle's checks.

    -S: the development venv has this project installed in editable mode, and its
    import hook would hand out the instructor's graders.hidden to the bundle's graders;
    a student's environment has no such hook. The library folders come back by PYTHONPATH.
    """
    paths = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-S", "-m", f"{PACKAGE}.cli", "check", "--color", "never"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------ the bundle
def test_release_has_no_leaks(bundle, needles):
    assert {n.kind for n in needles} >= {"reference solution line", "exact answer", "hidden check name"}
    assert leaks.find_leaks(bundle, needles) == []


def test_bundle_holds_stubs_lessons_public_graders_readme(bundle):
    for e in registry.EXERCISES:
        stub = (ROOT / "exercises" / f"{e.slug}.py").read_text()
        assert f"attn-grade check {e.slug}" in stub  # the stub says how to check it, with the bundle's command:
        bundled = (bundle / "exercises" / f"{e.slug}.py").read_text()
        assert bundled == stub.replace("attn-grade check", f"{COMMAND} check")
        assert (bundle / PACKAGE / f"{e.slug}.py").is_file()
    for task in (ROOT / "exercises").glob("*.md"):  # task statements of written answers
        assert (bundle / "exercises" / task.name).read_text() == task.read_text().replace("attn-grade", COMMAND)
    lessons = sorted(p.name for p in (ROOT / "course" / "lessons").glob("*.ipynb"))
    assert lessons and sorted(p.name for p in (bundle / "course" / "lessons").glob("*.ipynb")) == lessons
    assert "attn-grade" not in (bundle / "course" / "lessons" / "README.md").read_text()
    for name in ("cli/__init__.py", "grading/engine.py", "registry.py", "sandbox/inside/worker.py", "sandbox/submission.py"):
        assert (bundle / PACKAGE / name).is_file()
    readme = (bundle / "README.md").read_text()
    assert f"{COMMAND} check" in readme and "hidden checks" in readme and "pip install" in readme
    assert "attn-grade" not in readme and "graders" not in readme
    project = (bundle / "pyproject.toml").read_text()
    assert f'{COMMAND} = "{PACKAGE}.cli:run"' in project and "hypothesis==" in project
    assert "attn-grade" not in project and "graders" not in project  # the main distribution's names


def test_bundle_leaves_out_solutions_hidden_checks_tests_and_course_sources(bundle):
    for path in ("solutions", "graders", f"{PACKAGE}/hidden", f"{PACKAGE}/classroom", f"{PACKAGE}/batch",
                 "tests", "bench", "demo", "course/source"):
        assert not (bundle / path).exists(), path
    assert not list(bundle.rglob("__pycache__"))
    assert not [p for p in bundle.rglob("*") if "solution" in p.name.lower()]


def test_check_in_the_bundle_grades_the_stubs_zero_with_public_checks_only(bundle):
    done = run_check(bundle)
    assert done.returncode == 1, done.stderr
    assert f"Total: 0/{PUBLIC_POINTS:g}" in done.stdout
    assert "hidden checks" in done.stdout and "instructor" in done.stdout
    assert "(hidden)" not in done.stdout and "grader itself failed" not in done.stdout
    assert "not written yet" in done.stdout
    assert f"'{COMMAND} hint" in done.stdout and "attn-grade" not in done.stdout + done.stderr


def test_check_in_the_bundle_gives_the_reference_full_public_marks(copy):
    for e in registry.EXERCISES:
        shutil.copy(ROOT / "solutions" / f"{e.slug}.py", copy / "exercises" / f"{e.slug}.py")
    done = run_check(copy)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert f"Total: {PUBLIC_POINTS:g}/{PUBLIC_POINTS:g}" in done.stdout
    assert PUBLIC_POINTS < sum(e.points for e in registry.EXERCISES)  # some points are hidden


def test_copy_public_under_another_name_imports_and_has_public_checks_only(tmp_path):
    target = copy_public(tmp_path, "attn_checks")
    assert target == tmp_path / "attn_checks"
    for rel in INSTRUCTOR_ONLY:
        assert not (target / rel).exists(), rel
    assert (target / "grading" / "notebook.py").is_file() and (target / "kit" / "props.py").is_file()
    paths = [str(tmp_path), *dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))]
    code = ("import attn_checks.grading.engine as e; "
            "print(len(e.checks_of('softmax')), sum(c.spec.hidden for c in e.checks_of('softmax')))")
    done = subprocess.run([sys.executable, "-S", "-c", code], env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(checks_of("softmax", hidden=False))), "0"]


# ------------------------------------------------------------------ usage errors
@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "old.txt").write_text("keep me"), "not empty"),
    (lambda d: None, "holds the project"),
])
def test_usage_errors_exit_two_with_a_named_cause(tmp_path, capsys, make, words):
    out = tmp_path / "out"
    out.mkdir()
    make(out)
    target = out if words == "not empty" else ROOT
    with pytest.raises(SystemExit) as exc:
        main(["release", str(target)])
    assert exc.value.code == 2
    assert words in capsys.readouterr().err
    assert (out / "old.txt").exists() == (words == "not empty")


def test_force_replaces_a_non_empty_out(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("stale")
    assert main(["release", str(out), "--force"]) == 0
    assert not (out / "old.txt").exists() and (out / "exercises" / "softmax.py").is_file()
    assert "no leaks found" in capsys.readouterr().out


# ------------------------------------------------------------------ planted leaks
def test_a_reference_solution_body_is_found(copy, needles):
    stub = copy / "exercises" / "softmax.py"
    stub.write_text(stub.read_text() + "\n" + (ROOT / "solutions" / "softmax.py").read_text())
    found = leaks.find_leaks(copy, needles)
    assert found and all(f.startswith("exercises/softmax.py line") for f in found)
    assert any("reference solution line from solutions/softmax.py" in f for f in found)


@pytest.mark.parametrize("slug", [e.slug for e in registry.EXERCISES])
def test_every_function_of_every_reference_solution_is_caught(tmp_path, needles, slug):
    """Each function body alone, pasted into a file, is caught."""
    source = (ROOT / "solutions" / f"{slug}.py").read_text()
    functions = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]
    assert functions
    for fn in functions:
        (tmp_path / "answer.py").write_text(ast.get_source_segment(source, fn))
        assert leaks.find_leaks(tmp_path, needles), f"{slug}.{fn.name} is not caught"


def test_an_exact_answer_in_a_lesson_cell_or_readme_is_found(copy, needles):
    lesson = sorted((copy / "course" / "lessons").glob("*.ipynb"))[0]
    nb = json.loads(lesson.read_text())
    a_1 = reference("hand_scores").attention_weights()[0]
    nb["cells"].append({"cell_type": "markdown", "metadata": {}, "source": [f"so a₁ = {a_1}\n"]})
    lesson.write_text(json.dumps(nb))
    (copy / "README.md").write_text((copy / "README.md").read_text() + "\nhint: y₁ ≈ 2.67905\n")
    found = leaks.find_leaks(copy, needles)
    cell = len(nb["cells"]) - 1
    assert any(f.startswith(f"course/lessons/{lesson.name} cell {cell} line 1: exact answer") for f in found), found
    assert any(f.startswith("README.md line") and "2.67905" in f for f in found), found
    assert len(found) == 2


def test_an_exact_answer_in_a_notebook_output_is_found(copy, needles):
    lesson = sorted((copy / "course" / "lessons").glob("*.ipynb"))[-1]
    nb = json.loads(lesson.read_text())
    nb["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["0.66976\n"]}]
    lesson.write_text(json.dumps(nb))
    assert leaks.find_leaks(copy, needles) == [
        f"course/lessons/{lesson.name} cell 1 output line 1: exact answer from "
        f"solutions/hand_scores.py attention_weights(): '0.66976'"]


def test_a_hidden_check_name_is_found(copy, needles):
    grader = copy / PACKAGE / "softmax.py"
    grader.write_text(grader.read_text() + '\n# "agrees with the reference softmax"\n')
    found = leaks.find_leaks(copy, needles)
    assert len(found) == 1 and found[0].startswith(f"{PACKAGE}/softmax.py line")
    assert "hidden check name from graders/hidden/softmax.py" in found[0]


def test_the_hidden_checks_folder_copied_in_is_found(copy, needles):
    shutil.copytree(ROOT / "graders" / "hidden", copy / PACKAGE / "hidden",
                    ignore=shutil.ignore_patterns("__pycache__"))
    found = leaks.find_leaks(copy, needles)
    for e in registry.EXERCISES:
        assert any(f.startswith(f"{PACKAGE}/hidden/{e.slug}.py line") for f in found), e.slug


@pytest.mark.parametrize("rel", INSTRUCTOR_ONLY)
def test_an_instructor_only_module_copied_in_is_found(copy, rel):
    """The bundle holds what `check` needs, never the hidden checks, the classroom or the batch grader."""
    source, target = ROOT / "graders" / rel, copy / PACKAGE / rel
    if source.is_dir():
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copy(source, target)
    assert leaks.find_leaks(copy, []) == [
        f"{PACKAGE}/{rel}: instructor-only, never in what students get (graders/classroom/release/public.py)"]


def test_a_room_not_on_the_allow_list_is_found(copy):
    """What ships is an allow-list: a folder nobody named (say, a new room copied in) is a leak too."""
    (copy / PACKAGE / "extra").mkdir()
    (copy / PACKAGE / "extra" / "tool.py").write_text("x = 1\n")
    (copy / PACKAGE / "notes.py").write_text("y = 2\n")
    assert leaks.find_leaks(copy, []) == [
        f"{PACKAGE}/{name}: not on the list of what students get (graders/classroom/release/public.py)"
        for name in ("extra", "notes.py")]


def test_every_part_of_the_package_is_either_shipped_or_instructor_only():
    """A room added to graders/ must be put on one list or the other (graders/classroom/release/public.py)."""
    from graders.classroom.release.public import is_public

    for path in sorted((ROOT / "graders").iterdir()):
        if path.name == "__pycache__":
            continue
        shipped = is_public(path.name)
        assert shipped != (path.name in INSTRUCTOR_ONLY), f"graders/{path.name}: say in public.py whether it ships"
        whole = ("cli", "grading", "terminal", "kit", "bounded", "sandbox", "hints", "variants", "__init__.py", "registry.py")
        assert shipped == (path.stem in registry.BY_SLUG or path.name in whole), path.name
    assert (ROOT / "graders" / "batch").is_dir() and "batch" in INSTRUCTOR_ONLY


def test_a_model_answer_line_is_found(copy, tmp_path, monkeypatch):
    """solutions/*.md: a distinctive line is found, a line of the task statement is not."""
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir(), exercises.mkdir()
    task = "Show that the variance of q·k grows linearly with d_k."
    (exercises / "proof.md").write_text(f"# Task\n{task}\n")
    (solutions / "proof.md").write_text(f"# Model answer\n{task}\n"
                                        "The d_k products are independent, so their variances add up.\n")
    monkeypatch.setattr(withheld, "SOLUTIONS", solutions)
    monkeypatch.setattr(withheld, "EXERCISES", exercises)
    needles = withheld.model_answer_needles()
    assert [n.shown for n in needles] == ["The d_k products are independent, so their variances add up."]
    (copy / "exercises" / "proof.md").write_text(f"{task}\nThe d_k products are independent, so their "
                                                 "variances add up.\n")
    found = leaks.find_leaks(copy, needles)
    assert len(found) == 1 and found[0].startswith("exercises/proof.md line 2: model answer line")


@pytest.mark.slow
def test_the_bundle_and_the_project_install_side_by_side(bundle, tmp_path):
    """The two distributions install other names: in one place, neither replaces the other's
    package or command, and each command runs its own package."""
    import importlib.util

    project = tmp_path / "project"  # a copy: pip builds in the source folder
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "graders", project / "graders", ignore=shutil.ignore_patterns("__pycache__"))
    prefix = tmp_path / "prefix"  # --prefix, not --target: pip's --target replaces bin/ rather than adding to it
    have = all(importlib.util.find_spec(m) for m in ("setuptools", "wheel"))  # else pip fetches them to build
    isolation = ["--no-build-isolation"] if have else []
    here = _installed_here()
    for source in (project, bundle):
        # --ignore-installed: else pip uninstalls this environment's own (editable) attn-exercises first
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed",
                               *isolation, "--prefix", str(prefix), str(source)],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert _installed_here() == here, "installing elsewhere changed the environment the tests run in"
    target = next(prefix.glob("lib/python*/site-packages"))
    assert (target / "graders" / "hidden").is_dir() and (target / "graders" / "batch").is_dir()
    assert (target / PACKAGE / "cli").is_dir() and not (target / PACKAGE / "hidden").exists()
    libs = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *libs]), "NO_COLOR": "1"}
    for command, package in (("attn-grade", "graders"), (COMMAND, PACKAGE)):
        script = prefix / "bin" / command
        assert f"from {package}.cli import run" in script.read_text(), script.read_text()
        # -S: the development venv's editable-install hook would hand out this checkout's graders
        done = subprocess.run([sys.executable, "-S", str(script), "list"], cwd=bundle, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr[-2000:]
        assert f"'{command} check" in done.stdout, done.stdout


def _installed_here() -> list[str]:
    """The distributions of the environment the tests run in, with where each lives."""
    from importlib import metadata

    return sorted(f"{d.metadata['Name']} {d.version} {d.locate_file('')}" for d in metadata.distributions())
