"""`attn-grade report OUT --nbgrader-course COURSE` on a real nbgrader gradebook: the course's grade
beside the automatic points (a person's mark in, the late penalty off), what lateness cost, a mark
still missing shown as such, and the roster's names. The course is a copy of the one
tests/test_nbgrade.py grades once; tests/test_report_names.py tests the page against a stand-in."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from graders.cli import main  # noqa: E402
from test_classreport import Tables  # noqa: E402
from test_nbgrade import graded  # noqa: E402,F401 - the shared fixture

pytestmark = pytest.mark.system  # nbgrader's gradebook, and a class graded into it
PART = "part1_scores"


def _gradebook(course: Path):
    from nbgrader.api import Gradebook

    return Gradebook(f"sqlite:///{course / 'gradebook.db'}", "attn-exercises")


def test_the_report_shows_the_courses_grades_lateness_and_names(graded, tmp_path):
    src_course, src_out = graded
    course = Path(shutil.copytree(src_course, tmp_path / "course", symlinks=True))
    out = Path(shutil.copytree(src_out, tmp_path / "graded", symlinks=True))
    (course / "nbgrader_config_local.py").write_text('c = get_config()\n'
                                                     'c.LateSubmissionPlugin.penalty_method = "zero"\n')
    with _gradebook(course) as gb:
        gb.update_or_create_assignment(PART, duedate="2029-12-31 12:00:00 UTC")  # handed in 2030-01-01 12:00
        for student in ("ref", "mutant"):  # a person marks the written proof, after grading
            proof = gb.find_grade("variance_proof-proof", "variance_proof", PART, student)
            proof.manual_score, proof.needs_manual_grade = 3.0, False
        gb.find_grade("variance_proof-proof", "variance_proof", PART, "stub").needs_manual_grade = True  # not yet
        gb.update_or_create_student("ref", first_name="Ada", last_name="Lovelace")
        gb.update_or_create_student("cheat", first_name="<script>alert(1)</script>", last_name="Mallory")
        gb.db.commit()
        raw = {s: float(gb.find_submission(PART, s).score) for s in ("ref", "mutant")}
        waits = gb.find_submission(PART, "stub").needs_manual_grade
        on_time = {a.name: float(gb.find_submission(a.name, "ref").score) for a in gb.assignments if a.name != PART}
    assert raw["ref"] > 3 and waits  # the hand mark is in ref's score; stub's proof waits for a person

    assert main(["report", str(out), "--nbgrader-course", str(course)]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    tables = Tables()
    tables.feed(page)
    groups, head, *body = tables.tables["course-grades"]
    rows = {r[0]: r for r in body}
    column = {a: 2 * k + 2 for k, a in enumerate(groups[1:])}  # student, then automatic and course grade of each
    assert head[column[PART]] == "course grade of\xa018"  # the proof's hand-marked points included
    ref = rows["Lovelace, Ada ref"]  # the roster's name, then the id
    assert ref[column[PART]] == "0 late"  # "zero": the whole score, hand mark included, is the penalty
    assert rows["mutant"][column[PART]] == "0 late"
    assert rows["stub"][column[PART]] == "waiting for a mark"  # not 0: a person's mark is missing
    for name, grade in on_time.items():  # the other assignments were on time: the course's grade, as it is
        assert ref[column[name]] == f"{round(grade, 2):g}"
    late = [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", page.split(
        "<ul id=late-list>")[1].split("</ul>")[0])]
    assert f"Lovelace, Ada ref, {PART}: late by 1 d: -{raw['ref']:g} points under the course's policy" in late
    assert f"mutant, {PART}: late by 1 d: -{raw['mutant']:g} points under the course's policy" in late
    assert all(f", {PART}: late by 1 d: " in li for li in late)  # the other assignments were on time
    assert "Mallory, <script>alert(1)</script> cheat" in rows and "<script>alert" not in page
