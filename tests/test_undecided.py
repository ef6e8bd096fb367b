"""No silent zeros: a check SymPy could not settle (undecided) waits for a person, everywhere it shows.

Its points are pending, not lost: results.json flags it (extra_data.needs_manual_grade), the text
report and its totals say so, the batch's gradebook and summary name the student, the class report
lists it, nbgrader's gradebook asks a person for that cell (never over a person's score), and the
export refuses the grade, saying whose and what to do, unless --allow-ungraded leaves it empty.

An undecided check is made here as the grader makes it (kit/exact.py's words, Outcome.UNDECIDED):
what SymPy could not settle is tested in test_exact.py; this file tests what follows from it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from graders.outfolder.outfiles import WAITING_COLUMN, gradebook_text, results_path, write_atomic
from graders.batch.summary import summary
from graders.classroom.report import analysis, classreport
from graders.classroom.nbgrader import nbfill, nbgradebook, nbmanual
from graders.cli import main
from graders.grading.report import render_text
from graders.grading.results import CheckResult, ExerciseResult, from_gradescope, to_gradescope, waiting_in
from graders.kit.outcomes import Outcome

UNDECIDED = ("you gave exp(1/sqrt(2))/(exp(-1/sqrt(2)) + exp(1/sqrt(2))); SymPy could not decide whether it "
             "equals the answer within 5 s, so it is left for a person to check")
CHECK = "the weights are the softmax of the scores, exactly"


def hand_scores(undecided=True) -> ExerciseResult:
    """hand_scores (8 points): 7.5 right, and 0.5 either undecided or right."""
    last = (CheckResult("hand_scores", CHECK, 0.0, 0.5, Outcome.UNDECIDED, UNDECIDED, "public") if undecided
            else CheckResult("hand_scores", CHECK, 0.5, 0.5, Outcome.PASSED, "", "public"))
    return ExerciseResult("hand_scores", "Attention by hand", [
        CheckResult("hand_scores", "each function returns a pair of real numbers", 0.5, 0.5, Outcome.PASSED, "",
                    "public"),
        CheckResult("hand_scores", "agrees with the reference", 7.0, 7.0, Outcome.PASSED, "", "hidden"),
        last])


def variance_proof(points=6.0) -> ExerciseResult:
    return ExerciseResult("variance_proof", "Why Var(q·k) = d_k", [
        CheckResult("variance_proof", "agrees with the reference", points, 6.0,
                    Outcome.PASSED if points == 6 else Outcome.FAILED, "" if points == 6 else "not right", "hidden")])


# ------------------------------------------------------------------ results.json
def test_results_json_flags_the_check_for_a_person_and_says_its_points_are_pending():
    data = to_gradescope([hand_scores()])
    assert {t["status"] for t in data["tests"]} == {"passed", "failed"}  # Gradescope knows no third status
    flagged = [t for t in data["tests"] if t["extra_data"].get("needs_manual_grade")]
    assert [t["name"] for t in flagged] == [f"hand_scores: {CHECK}"]
    assert flagged[0]["extra_data"]["outcome"] == "undecided" and flagged[0]["output"].startswith("Undecided: ")
    assert "0.5 points wait for a person's check" in data["output"] and "not lost" in data["output"]
    assert waiting_in(data) == [("hand_scores", CHECK, 0.5)]
    (back,) = from_gradescope(json.loads(json.dumps(data)))
    assert back.checks[-1].waits and back.checks[-1].message == UNDECIDED and back.pending == 0.5


def test_results_json_of_a_decided_grade_is_as_before():
    data = to_gradescope([hand_scores(undecided=False)])
    assert "output" not in data and not waiting_in(data)
    assert all("needs_manual_grade" not in t["extra_data"] for t in data["tests"])


def test_a_results_json_written_before_the_flag_is_read_by_its_outcome():
    data = to_gradescope([hand_scores()])
    for t in data["tests"]:
        t["extra_data"].pop("needs_manual_grade", None)
    assert waiting_in(data) == [("hand_scores", CHECK, 0.5)]


# ------------------------------------------------------------------ the text report
def test_the_text_report_says_the_points_wait_for_a_person_not_that_they_are_lost():
    assert all(len(line) <= 80 for line in render_text([hand_scores()], seconds=1.0, width=80).splitlines())
    text = render_text([hand_scores(), variance_proof()], seconds=1.0, width=None)
    assert f"? {CHECK}  [0/0.5: pending a person's check]" in text
    assert "hand_scores: 7.5/8, and 0.5 points wait for a person's check" in text
    assert "? hand_scores       7.5/8  (0.5 pending a person's check)" in text  # not ✗: nothing else is lost
    total = text[text.index("Total:"):]
    assert total.startswith("Total: 13.5/14 in 1.0 s\n0.5 points wait for a person's check") and "not lost" in total


def test_a_report_with_nothing_undecided_says_nothing_of_a_person():
    text = render_text([hand_scores(undecided=False)], seconds=1.0, width=80)
    assert "person" not in text and "✓ hand_scores" in text


def test_show_prints_a_results_json_with_its_pending_points(tmp_path, capsys):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(to_gradescope([hand_scores()])))
    assert main(["show", str(path), "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "[0/0.5: pending a person's check]" in out and "0.5 points wait for a person's check" in out


# ------------------------------------------------------------------ a class in OUT
def _class(out: Path, students: dict) -> Path:
    """OUT as 'attn-grade grade' writes it, each student's results from ExerciseResults."""
    for name, results in students.items():
        write_atomic(results_path(out, name), json.dumps(to_gradescope(results)))
    write_atomic(out / "gradebook.csv", gradebook_text(out, list(students), ["hand_scores", "variance_proof"]))
    return out


@pytest.fixture
def klass(tmp_path):
    return _class(tmp_path / "out", {"ann": [hand_scores(), variance_proof()],
                                     "bob": [hand_scores(undecided=False), variance_proof(3.0)]})


def test_the_gradebook_names_what_waits_for_a_person(klass):
    rows = (klass / "gradebook.csv").read_text().splitlines()
    assert rows == ["student,hand_scores,variance_proof,total,needs a person",
                    "ann,7.5,6,13.5,hand_scores: 0.5 points", "bob,8,3,11,"]


def test_a_gradebook_with_nothing_undecided_has_its_usual_columns(tmp_path):
    out = _class(tmp_path, {"bob": [hand_scores(undecided=False), variance_proof()]})
    assert (out / "gradebook.csv").read_text().splitlines()[0] == "student,hand_scores,variance_proof,total"
    assert WAITING_COLUMN not in (out / "gradebook.csv").read_text()


def test_the_batch_summary_lists_the_students_whose_checks_wait(klass):
    said = summary(klass, ["ann", "bob"], {}, "one folder per student", ["hand_scores", "variance_proof"])
    assert "Waiting for a person (1 student(s), 0.5 points pending, not lost)" in said
    assert f"  ann: hand_scores: {CHECK} (0.5 points pending)" in said
    assert "bob:" not in said.split("Waiting for a person", 1)[1]
    assert "Full marks per exercise" in said  # the gradebook's new column is read as before


def test_the_class_report_shows_who_needs_a_person(klass):
    loaded = analysis.load(klass)
    assert [s.total for s in loaded.students] == [13.5, 11.0]  # the total, not "needs a person", is read
    assert analysis.waiting(loaded) == [("ann", "hand_scores", CHECK, 0.5)]
    item = next(i for i in analysis.items(loaded) if i.name == CHECK)
    assert (item.wrong, item.ungraded) == (0, 1)  # pending is not wrong
    page = classreport.render(loaded)
    assert "<h2 id=waiting>Waiting for a person (1 student(s))</h2>" in page
    assert f"<td>ann</td><td>hand_scores</td><td>{CHECK}</td><td class=n>0.5</td>" in page
    assert page.count(">needs a person</span>") == 2  # ann's hand_scores score, and the key above the table
    assert "ann: 13.5/14 (0.5 pending a person's check)</summary>" in page


def test_a_class_report_with_nothing_undecided_says_none_waits(tmp_path):
    page = classreport.render(analysis.load(_class(tmp_path, {"bob": [hand_scores(undecided=False),
                                                                       variance_proof()]})))
    assert "<h2 id=waiting>Waiting for a person</h2><p>None" in page and ">needs a person<" not in page


# ------------------------------------------------------------------ the export
def test_the_export_refuses_a_grade_that_waits_and_says_whose_and_what_to_do(klass, capsys):
    assert main(["export", str(klass), "--format", "csv", "--to", "-"]) == 2
    err = capsys.readouterr().err
    assert "1 grade(s) wait for a person's check" in err
    assert f"ann, part1_scores: hand_scores: {CHECK} (0.5 points pending)" in err
    assert "attn-grade show" in err and "formgrader" in err and "--allow-ungraded" in err


def test_with_allow_ungraded_the_grade_that_waits_is_left_empty(klass, capsys):
    assert main(["export", str(klass), "--format", "csv", "--to", "-", "--allow-ungraded"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert "ann,part1_scores,,14" in rows and "bob,part1_scores,11,14" in rows


# ------------------------------------------------------------------ nbgrader's gradebook
@pytest.fixture
def book(tmp_path, monkeypatch):
    """An nbgrader gradebook with ann's submission of hand_scores, its two test cells autograded."""
    from nbgrader.api import Gradebook

    monkeypatch.setattr(nbgradebook, "_late_penalties", lambda *a: None)  # no late policy here
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")  # nbgrader's alembic
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gb:
        gb.add_assignment("part1_scores")
        gb.add_notebook("hand_scores", "part1_scores")
        for part, points in (("public", 1.0), ("hidden", 7.0)):
            gb.add_grade_cell(f"hand_scores-{part}", "hand_scores", "part1_scores", max_score=points,
                              cell_type="code")
        gb.add_student("ann")
        for grade in gb.add_submission("part1_scores", "ann").notebooks[0].grades:
            grade.needs_manual_grade = False  # as nbgrader's autograde leaves a test cell it ran
        gb.db.commit()
    return SimpleNamespace(db_url=url, course_id="")


def _grades(book):
    from nbgrader.api import Gradebook

    with Gradebook(book.db_url) as gb:
        sub = gb.find_submission("part1_scores", "ann")
        return ({g.name: (g.auto_score, g.manual_score, g.needs_manual_grade) for g in sub.notebooks[0].grades},
                sub.needs_manual_grade)


def test_an_undecided_check_asks_a_person_in_nbgraders_gradebook(book):
    per = nbfill.split_points(to_gradescope([hand_scores()]))
    assert per["hand_scores"]["waiting"] == {"public": True, "hidden": False}
    nbgradebook._set_scores(book, "ann", "part1_scores", per, nbmanual.manual_state(book, "ann", "part1_scores"))
    grades, needs = _grades(book)
    assert grades == {"hand_scores-public": (0.5, None, True), "hand_scores-hidden": (7.0, None, False)}
    assert needs  # formgrader lists the submission; nbscores (export --nbgrader-course) then refuses it


def test_a_persons_score_for_that_cell_is_never_overwritten(book):
    from nbgrader.api import Gradebook

    per = nbfill.split_points(to_gradescope([hand_scores()]))
    nbgradebook._set_scores(book, "ann", "part1_scores", per, {})
    with Gradebook(book.db_url) as gb:  # a person gives the cell its score in formgrader
        grade = gb.find_grade("hand_scores-public", "hand_scores", "part1_scores", "ann")
        grade.manual_score, grade.needs_manual_grade = 1.0, False
        gb.db.commit()
    nbgradebook._set_scores(book, "ann", "part1_scores", per, nbmanual.manual_state(book, "ann", "part1_scores"))
    nbmanual.ask_a_person(book, "ann", "part1_scores", per)  # as for a submission kept as it was
    grades, needs = _grades(book)
    assert grades["hand_scores-public"] == (0.5, 1.0, False) and not needs


def test_a_kept_submission_is_asked_for_a_person_too(book):
    per = nbfill.split_points(to_gradescope([hand_scores()]))
    nbgradebook._set_scores(book, "ann", "part1_scores", nbfill.split_points(to_gradescope([hand_scores(False)])),
                            {})  # written before: no flag
    nbmanual.ask_a_person(book, "ann", "part1_scores", per)
    assert _grades(book)[0]["hand_scores-public"][2] is True
