"""Grading an nbgrader course without surprises, through nbgrader's own API and commands.

Each test works on a copy of the course and the results that tests/test_nbgrade.py graded once
(`attn-grade grade --nbgrader-course`), changes one thing as an instructor or a student would,
grades again and looks at nbgrader's gradebook.
"""

from __future__ import annotations

import contextlib
import io
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


def _late_and_marked_after_grading(course: Path, out: Path) -> str:
    """Under "zero", ref hands in a day late and is graded; then a person marks ref's proof 3/4.
    Return what grading said."""
    (course / "nbgrader_config_local.py").write_text('c = get_config()\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with _gradebook(course) as gb:
        gb.update_or_create_assignment("part1_scores", duedate="2029-12-31 12:00:00 UTC")  # submitted 2030-01-01
    with capture() as said:
        assert _grade(course, out) == 0
    with _gradebook(course) as gb:
        grade = gb.find_grade("variance_proof-proof", "variance_proof", "part1_scores", "ref")
        grade.manual_score, grade.needs_manual_grade = 3.0, False  # formgrader's score box, after grading
        gb.db.commit()
    return said.getvalue()


def capture():
    return contextlib.redirect_stdout(io.StringIO())


def _exports(course: Path, out: Path, capsys) -> tuple[float, float]:
    """ref's part1_scores in `attn-grade export --nbgrader-course` and in `nbgrader export`."""
    import csv

    capsys.readouterr()
    assert main(["export", str(out), "--format", "csv", "--to", "-", "--nbgrader-course", str(course),
                 "--allow-ungraded"]) == 0
    ours = {r["student"]: r["score"] for r in csv.DictReader(capsys.readouterr().out.splitlines())
            if r["assignment"] == "part1_scores"}
    subprocess.run([nbkit._exe("nbgrader"), "export", "--log-level=ERROR"], cwd=course, check=True,
                   capture_output=True, env=nbkit._env())
    theirs = {r["student_id"]: r["score"] for r in csv.DictReader((course / "grades.csv").open())
              if r["assignment"] == "part1_scores"}
    return float(ours["ref"]), float(theirs["ref"])


def test_a_late_student_marked_by_hand_after_grading_is_penalised_in_both_exports(course, capsys):
    """The late penalty is worked out on the score as it is when exported, hand marks included:
    under "zero" a late ref exports 0 from both, not the 3 points a person gave after grading."""
    course, out = course
    said = _late_and_marked_after_grading(course, out)
    assert "late, under the course's policy:" in said and "  ref part1_scores: late by 1 d: -" in said, said
    with _gradebook(course) as gb:
        sub = gb.find_submission("part1_scores", "ref")
        assert sub.score > 3 and sub.total_seconds_late > 0  # the hand mark is in, and it is late
    assert _exports(course, out, capsys) == (0.0, 0.0)


def test_an_extension_puts_a_late_student_back_on_time_in_both_exports(course, capsys):
    course, out = course
    _late_and_marked_after_grading(course, out)
    capsys.readouterr()
    assert main(["extend", "--nbgrader-course", str(course)]) == 0
    listed = capsys.readouterr().out
    assert "ref part1_scores: late by 1 d: -" in listed and "points under the course" in listed, listed
    assert main(["extend", "--nbgrader-course", str(course), "ref", "part1_scores", "--by", "2d"]) == 0
    assert "ref has an extension of 2d for part1_scores: on time now" in capsys.readouterr().out
    with _gradebook(course) as gb:
        raw = gb.find_submission("part1_scores", "ref").score
        assert all(nb.late_submission_penalty is None  # stored again: formgrader agrees
                   for nb in gb.find_submission("part1_scores", "ref").notebooks)
    assert _exports(course, out, capsys) == pytest.approx((raw, raw))
    assert main(["extend", "--nbgrader-course", str(course), "ref", "part1_scores", "--by", "0"]) == 0
    assert "ref has no extension for part1_scores: still late by 1 d" in capsys.readouterr().out
    assert main(["extend", "--nbgrader-course", str(course), "ref", "part1_scores", "--by", "2 days"]) == 2
    assert "is not a duration" in capsys.readouterr().err
