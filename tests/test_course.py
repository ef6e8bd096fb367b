"""The nbgrader course (course/): generated, never hand-edited, and graded in the
notebook exactly as the sandboxed grader grades the same code.

The score-equality property: for the reference, the stub and a few mutants of
every exercise, ``public_checks``/``hidden_checks`` (run in process, as in a
notebook's test cells) give each check the same points as ``engine.grade_file``.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from graders import registry
from graders.cli import main
from graders.classroom.authoring.course import BuildError, answer_source, differences, render
from graders.classroom.release.public import INSTRUCTOR_ONLY
from graders.grading.engine import ROOT, checks_of, grade_file
from graders.grading.notebook import grade_namespace, hidden_checks, public_checks

COURSE = ROOT / "course"
SLUGS = [e.slug for e in registry.EXERCISES]
MUTANTS = Path(__file__).parent / "mutants"
# One realistic wrong answer per exercise, the first in name order (fixed, so the test is stable;
# each one costs seconds, twice: Hypothesis shrinks its counterexamples in both graders).
SAMPLED = [sorted((MUTANTS / slug).glob("*.py"))[0] for slug in SLUGS]


def _notebook(slug) -> dict:
    e = registry.get(slug)
    return json.loads((COURSE / "source" / e.assignment / f"{slug}.ipynb").read_text(encoding="utf-8"))


def _cells(slug) -> dict:
    return {c["metadata"]["nbgrader"]["grade_id"]: c for c in _notebook(slug)["cells"] if "nbgrader" in c["metadata"]}


def _source(cell) -> str:
    return "".join(cell["source"])


def _cleared(source: str) -> str:
    """What nbgrader's ClearSolutions leaves of an answer cell (the same rule, for code cells)."""
    return re.sub(r"(?ms)^([ \t]*)### BEGIN SOLUTION\n.*?^[ \t]*### END SOLUTION$",
                  r"\1# YOUR CODE HERE\n\1raise NotImplementedError()", source)


def _run_cell(source: str) -> dict:
    """Execute a cell as a kernel would: what it defined before any error stays defined."""
    namespace = {"__name__": "__main__"}
    try:
        exec(compile(source, "<answer cell>", "exec"), namespace)
    except NotImplementedError:
        pass
    return namespace


# ------------------------------------------------------------------ the build
def test_committed_course_equals_a_fresh_build():
    found = differences(COURSE, render())
    assert not found, "run `attn-grade course build`:\n" + "\n".join(found)


def test_build_writes_the_course_and_check_reports_differences(tmp_path, capsys):
    course = tmp_path / "course"
    assert main(["course", "build", "--course", str(course)]) == 0
    for rel in render():
        assert (course / rel).read_bytes() == (COURSE / rel).read_bytes(), rel
    for a in registry.ASSIGNMENTS:  # the public package next to the notebooks, without hidden checks
        assert (course / "source" / a / "attn_checks" / "grading" / "notebook.py").is_file()
        for rel in INSTRUCTOR_ONLY:
            assert not (course / "source" / a / "attn_checks" / rel).exists(), rel
    assert main(["course", "build", "--check", "--course", str(course)]) == 0
    target = course / "source" / "part3_attention" / "softmax.ipynb"
    target.write_text(target.read_text(encoding="utf-8").replace("softmax", "softmaks", 1), encoding="utf-8")
    (course / "source" / "part1_scores" / "stray.ipynb").write_text("{}", encoding="utf-8")
    capsys.readouterr()
    assert main(["course", "build", "--check", "--course", str(course)]) == 1
    out = capsys.readouterr().out
    assert "differs: source/part3_attention/softmax.ipynb" in out
    assert "not generated: source/part1_scores/stray.ipynb" in out
    assert "softmaks" in target.read_text(encoding="utf-8"), "--check must not write"
    assert main(["course", "build", "--course", str(course)]) == 0
    assert differences(course, render()) == []
    assert not (course / "source" / "part1_scores" / "stray.ipynb").exists()


def test_build_is_deterministic():
    assert render() == render()


# ------------------------------------------------------------------ the notebooks
@pytest.mark.parametrize("slug", SLUGS)
def test_notebook_cells_ids_and_points(slug):
    nb = _notebook(slug)
    assert (nb["nbformat"], nb["nbformat_minor"]) == (4, 5)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    ids = [c["id"] for c in nb["cells"]]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids)
    cells = _cells(slug)
    expected = {f"{slug}-answer", f"{slug}-public", f"{slug}-hidden"}
    written = (ROOT / "exercises" / f"{slug}.md").is_file()
    if written:
        expected |= {f"{slug}-rubric", f"{slug}-proof"}
    if registry.get(slug).varies:  # the student's own numbers, shown by a locked cell worth nothing
        expected |= {f"{slug}-numbers"}
        numbers = cells[f"{slug}-numbers"]["metadata"]["nbgrader"]
        assert (numbers["grade"], numbers["solution"], numbers["locked"]) == (False, False, True)
    assert set(cells) == expected
    for c in cells.values():
        assert c["metadata"]["nbgrader"]["schema_version"] == 3
    answer, public, hidden = (cells[f"{slug}-{k}"]["metadata"]["nbgrader"] for k in ("answer", "public", "hidden"))
    assert (answer["solution"], answer["grade"], answer["locked"]) == (True, False, False)
    assert (public["grade"], public["solution"], public["locked"]) == (True, False, True)
    assert (hidden["grade"], hidden["locked"]) == (True, True)
    checks = checks_of(slug)
    assert public["points"] == sum(c.spec.points for c in checks if not c.spec.hidden)
    assert hidden["points"] == sum(c.spec.points for c in checks if c.spec.hidden)
    assert public["points"] + hidden["points"] == registry.get(slug).points
    assert _source(cells[f"{slug}-public"]) == (
        f'from attn_checks.grading.notebook import public_checks\npublic_checks("{slug}", globals())')
    hidden_src = _source(cells[f"{slug}-hidden"])
    assert re.search(r"### BEGIN HIDDEN TESTS\n.*hidden_checks\(\"%s\", globals\(\)\)\n### END HIDDEN TESTS" % slug,
                     hidden_src, re.S)
    assert "graders" not in _source(cells[f"{slug}-public"]), "the public cell must work with the released files"


@pytest.mark.parametrize("slug", SLUGS)
def test_answer_cell_is_the_stub_with_the_solution_between_markers(slug):
    source = _source(_cells(slug)[f"{slug}-answer"])
    assert source.count("### BEGIN SOLUTION") == source.count("### END SOLUTION") > 0
    cleared = _cleared(source)
    assert "BEGIN SOLUTION" not in cleared
    namespace = _run_cell(cleared)
    stub = _run_cell((ROOT / "exercises" / f"{slug}.py").read_text(encoding="utf-8"))
    for name in registry.get(slug).functions:  # every function of the contract, with the stub's signature
        if name in namespace:  # (a cell that stops at a top-level `raise` defines nothing after it)
            assert inspect.signature(namespace[name]) == inspect.signature(stub[name]), name
        assert f"def {name}(" in cleared, f"{name} is missing from the released answer cell"
    intro = _source(_notebook(slug)["cells"][0])
    assert intro.startswith(f"# {registry.get(slug).title}\n") and "``" not in intro


def test_written_answer_cells_of_variance_proof():
    cells = _cells("variance_proof")
    rubric, proof = cells["variance_proof-rubric"], cells["variance_proof-proof"]
    assert rubric["cell_type"] == proof["cell_type"] == "markdown"
    assert rubric["metadata"]["nbgrader"]["locked"] and not rubric["metadata"]["nbgrader"]["grade"]
    meta = proof["metadata"]["nbgrader"]
    assert (meta["grade"], meta["solution"], meta["points"]) == (True, True, 4)
    text = _source(proof)
    model = (ROOT / "solutions" / "variance_proof.md").read_text(encoding="utf-8").strip()
    assert text == f"### BEGIN SOLUTION\n{model}\n### END SOLUTION"
    assert "Rubric" in _source(rubric)


def test_answer_source_refuses_solution_code_outside_the_functions():
    stub = textwrap.dedent('''\
        """Exercise demo: the summary.

        The task.
        """

        import math


        def area(r: float) -> float:
            """Area of a disc."""
            raise NotImplementedError
        ''')
    solution = textwrap.dedent('''\
        """Reference."""

        import math
        import functools

        # a helper the stub does not have
        def _square(x):
            return x * x


        def area(r):
            """Area."""
            # pi r squared
            return math.pi * _square(r)
        ''')
    # Cleared by nbgrader, a solution block outside any function would be a top-level
    # raise NotImplementedError() that stops the student's cell before it defines anything.
    with pytest.raises(BuildError, match="outside the stub's functions.*_square"):
        answer_source(stub, solution, "demo")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_worked_exercise_is_named_as_what_keeps_the_build(slug, tmp_path):
    """Built in a clone where the exercises were worked, the build once blamed solutions/ for the
    'code outside the stub's functions' that the worked exercises/ file had."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "exercises", root / "exercises")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    shutil.copy(root / "solutions" / f"{slug}.py", root / "exercises" / f"{slug}.py")  # worked: the solution
    with pytest.raises(BuildError, match=f"exercises/{slug}.py is not the stub any more") as exc:
        answer_source((root / "exercises" / f"{slug}.py").read_text(encoding="utf-8"),
                      (root / "solutions" / f"{slug}.py").read_text(encoding="utf-8"), slug)
    assert "solutions/" not in str(exc.value)


@pytest.mark.parametrize("slug", SLUGS)
def test_reference_answer_cell_earns_every_point_in_process(slug, capfd):
    cells = _cells(slug)
    namespace = _run_cell(_source(cells[f"{slug}-answer"]))
    assert public_checks(slug, namespace) == cells[f"{slug}-public"]["metadata"]["nbgrader"]["points"]
    assert hidden_checks(slug, namespace) == cells[f"{slug}-hidden"]["metadata"]["nbgrader"]["points"]
    out, err = capfd.readouterr()
    assert err == "" and f"Public checks of {slug}:" in out


@pytest.mark.parametrize("slug", SLUGS)
def test_released_answer_cell_earns_nothing(slug):
    namespace = _run_cell(_cleared(_source(_cells(slug)[f"{slug}-answer"])))
    assert public_checks(slug, namespace) == 0.0
    assert hidden_checks(slug, namespace) == 0.0


@pytest.mark.parametrize("path", SAMPLED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_in_process_scores_equal_the_sandboxed_engine(path):
    slug = path.parent.name
    namespace = _run_cell(path.read_text(encoding="utf-8"))
    ours = grade_namespace(slug, namespace, hidden=False).checks + grade_namespace(slug, namespace, hidden=True).checks
    sandboxed = grade_file(slug, path).checks
    assert [(c.name, c.points, c.outcome) for c in ours] == [(c.name, c.points, c.outcome) for c in sandboxed]
    assert sum(c.points for c in ours) < registry.get(slug).points


def test_a_missing_function_scores_zero_with_a_message(capsys):
    namespace = _run_cell((ROOT / "solutions" / "attention.py").read_text(encoding="utf-8"))
    del namespace["padding_mask"]
    points = public_checks("attention", namespace)
    out = capsys.readouterr().out
    assert 0 < points < _cells("attention")["attention-public"]["metadata"]["nbgrader"]["points"]
    assert "padding_mask is not defined in your answer cell" in out
    assert "Not defined: padding_mask. Run the answer cell first" in out


def test_prints_warnings_and_stderr_of_the_student_stay_out_of_the_cell(capfd):
    source = (ROOT / "solutions" / "softmax.py").read_text(encoding="utf-8") + textwrap.dedent('''
        import os, sys, warnings
        _softmax = softmax

        def softmax(z, axis=-1):
            print("debugging", z.shape)
            print("to stderr", file=sys.stderr)
            os.write(2, b"straight to descriptor 2\\n")
            warnings.warn("a warning")
            return _softmax(z, axis)
        ''')
    points = public_checks("softmax", _run_cell(source))
    out, err = capfd.readouterr()
    assert err == ""
    assert "debugging" not in out and "straight" not in out
    assert points == _cells("softmax")["softmax-public"]["metadata"]["nbgrader"]["points"]
