"""Grading an nbgrader course without surprises, through nbgrader's own API and commands.

Each test works on a copy of the course and the results that tests/test_nbgrade.py graded once
(`attn-grade grade --nbgrader-course`), changes one thing as an instructor or a student would,
grades again and looks at nbgrader's gradebook.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from graders import registry  # noqa: E402
from graders.cli import main  # noqa: E402
from test_nbgrade import CLASS, SOLUTION, graded, nbkit  # noqa: E402,F401 - graded: the shared fixture

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def course(graded, tmp_path):
    """A copy of the graded course and its OUT folder, to change."""
    src_course, src_out = graded
    course = Path(shutil.copytree(src_course, tmp_path / "course", symlinks=True))
    out = Path(shutil.copytree(src_out, tmp_path / "graded", symlinks=True))
    return course, out


def _grade(course: Path, out: Path, *extra) -> int:
    return main(["grade", str(course / "submitted"), "--out", str(out), "--nbgrader-course", str(course),
                 "--no-progress", "--jobs", "2", *extra])


def _gradebook(course: Path):
    from nbgrader.api import Gradebook

    return Gradebook(f"sqlite:///{course / 'gradebook.db'}", "attn-exercises")


def test_an_unchanged_class_is_kept_and_nothing_is_rewritten(course, capsys):
    course, out = course
    before = {p: p.stat().st_mtime_ns for p in (course / "autograded").rglob("*.ipynb")}
    assert _grade(course, out) == 0
    said = capsys.readouterr().out
    assert f"{len(CLASS)} student(s) already graded" in said and "0 submission(s) autograded" in said
    assert {p: p.stat().st_mtime_ns for p in (course / "autograded").rglob("*.ipynb")} == before


def test_a_changed_notebook_regrades_that_student_only_and_keeps_a_persons_grades(course, capsys):
    course, out = course
    with _gradebook(course) as gb:  # a person marks ref's written proof in formgrader
        grade = gb.find_grade("variance_proof-proof", "variance_proof", "part1_scores", "ref")
        grade.manual_score, grade.needs_manual_grade = 3.0, False
        gb.find_comment("variance_proof-proof", "variance_proof", "part1_scores", "ref").manual_comment = "Clear."
        gb.db.commit()
    others = {p: p.stat().st_mtime_ns for p in (out / "students").glob("*/results.json") if p.parent.name != "ref"}
    notebook = course / "submitted" / "ref" / "part1_scores" / "hand_scores.ipynb"
    nb = nbkit.set_answer(json.loads(notebook.read_text()), "hand_scores",
                          (ROOT / "tests/mutants/hand_scores/floats_math.py").read_text())
    notebook.write_text(json.dumps(nb))
    assert _grade(course, out) == 0
    said = capsys.readouterr().out
    assert f"{len(CLASS) - 1} student(s) already graded" in said
    assert {p: p.stat().st_mtime_ns for p in others} == others  # nobody else's results were rewritten
    with _gradebook(course) as gb:
        proof = gb.find_grade("variance_proof-proof", "variance_proof", "part1_scores", "ref")
        assert (proof.manual_score, proof.needs_manual_grade) == (3.0, False)
        assert gb.find_comment("variance_proof-proof", "variance_proof", "part1_scores", "ref").manual_comment == "Clear."
        hand = gb.find_submission_notebook("hand_scores", "part1_scores", "ref")
        assert sum(g.auto_score for g in hand.grades) < registry.get("hand_scores").points


def test_scores_that_differ_from_the_hardened_ones_are_reported_then_replaced(course, capsys):
    course, out = course
    with _gradebook(course) as gb:  # what an unprotected autograde of the cheat would have stored
        gb.find_grade("softmax-public", "softmax", "part3_attention", "cheat").auto_score = 8.0
        gb.db.commit()
        hidden = gb.find_grade("softmax-hidden", "softmax", "part3_attention", "cheat").auto_score
    assert _grade(course, out) == 0
    said = capsys.readouterr().out
    ours = nbkit.our_scores(out)[("cheat", "softmax")]
    assert "1 score(s) differ from the hardened grades" in said
    assert f"cheat part3_attention/softmax: {8.0 + hidden:g} -> {ours:g}" in said
    assert said.index("differ from the hardened") < said.index("submission(s) autograded")
    assert nbkit.nbgrader_scores(course)[("cheat", "softmax")] == pytest.approx(ours)
    flags = json.loads((out / "integrity.json").read_text())
    assert {"student": "cheat", "where": "part3_attention/softmax.ipynb", "kind": "unhardened scores",
            "detail": f"the gradebook held {8.0 + hidden:g} -> {ours:g}"} in flags


def test_a_broken_notebook_gets_a_feedback_page_and_its_assignment_stays_reviewable(course):
    course, _ = course
    autograded = course / "autograded" / "broken" / "part3_attention"
    for slug in ("softmax", "attention", "multi_head"):  # not JSON, no answer cell, two answer cells
        assert (autograded / f"{slug}.ipynb").is_file(), slug
    proc = subprocess.run([nbkit._exe("nbgrader"), "generate_feedback", "part3_attention", "--force",
                           "--student=broken", "--log-level=ERROR"], cwd=course, capture_output=True, text=True,
                          env=nbkit._env())
    assert proc.returncode == 0, proc.stderr
    page = (course / "feedback" / "broken" / "part3_attention" / "softmax.html").read_text()
    assert "could not be graded" in page and "not valid JSON" in page
    assert (course / "submitted" / "broken" / "part3_attention" / "softmax.ipynb").read_text() == '{"cells": ['


def test_the_late_policy_applies_as_nbgrader_applies_it(course, tmp_path):
    course, out = course
    (course / "nbgrader_config_local.py").write_text('c = get_config()\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with _gradebook(course) as gb:
        gb.update_or_create_assignment("part1_scores", duedate="2029-12-31 12:00:00 UTC")  # submitted 2030-01-01
    theirs = Path(shutil.copytree(course, tmp_path / "theirs", symlinks=True))
    assert _grade(course, out) == 0
    nbkit.nbgrader_autograde(theirs, ["part1_scores"], students=["ref"])  # nbgrader's own, unprotected
    penalties = {}
    for where in (course, theirs):
        with _gradebook(where) as gb:
            for e in registry.of_assignment("part1_scores"):
                nb = gb.find_submission_notebook(e.slug, "part1_scores", "ref")
                penalties.setdefault(e.slug, []).append((nb.late_submission_penalty, nb.score))
    for slug, (ours, nbgraders) in penalties.items():
        assert ours == nbgraders, slug
        assert ours[0] == pytest.approx(ours[1]) and ours[0] > 0, slug  # 'zero': the penalty is the score


def test_formgraders_autograde_button_refuses_naming_the_hardened_command(course):
    """formgrader's Autograde button calls NbGraderAPI.autograde: the same refusal, nothing changed."""
    from nbgrader.apps import NbGraderAPI

    course, _ = course
    before = nbkit.nbgrader_scores(course)
    outcome = NbGraderAPI(config=nbkit.course_config(course)).autograde("part3_attention", "cheat", force=True)
    assert not outcome["success"]
    assert "attn-grade grade" in outcome.get("log", "") + outcome.get("error", "")
    assert nbkit.nbgrader_scores(course) == before
