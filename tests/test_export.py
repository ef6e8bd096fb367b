"""`attn-grade export`: a graded class's points per assignment for an LMS (Canvas's gradebook CSV,
or one row per student and assignment), checked against files written by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graders import registry
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    subs = root / "class"
    (subs / "ann").mkdir(parents=True)
    (subs / "=bob").mkdir()  # nothing handed in; a name a spreadsheet would run
    for e in registry.EXERCISES:
        shutil.copy(ROOT / "solutions" / f"{e.slug}.py", subs / "ann" / f"{e.slug}.py")
    assert main(["grade", str(subs), "--out", str(root / "out"), "--no-progress"]) == 0
    return root / "out"

P3 = f"{sum(e.points for e in registry.EXERCISES if e.assignment == 'part3_attention'):g}"  # its points


def test_canvas_export_is_canvas_gradebook_csv(graded):
    assert main(["export", str(graded), "--format", "canvas", "--column", "part1_scores=Part 1 (1234)"]) == 0
    assert (graded / "canvas.csv").read_text() == (
        "Student,ID,SIS User ID,SIS Login ID,Section,Part 1 (1234),part2_saturation,part3_attention\n"
        f"Points Possible,,,,,14,16,{P3}\n"
        "'=bob,,,'=bob,,0,0,0\n"
        f"ann,,,ann,,14,16,{P3}\n")


def test_plain_export_has_a_row_per_student_and_assignment(graded):
    assert main(["export", str(graded), "--format", "csv", "--to", str(graded / "plain.csv")]) == 0
    assert (graded / "plain.csv").read_text() == (
        "student,assignment,score,max_score\n"
        f"'=bob,part1_scores,0,14\n'=bob,part2_saturation,0,16\n'=bob,part3_attention,0,{P3}\n"
        f"ann,part1_scores,14,14\nann,part2_saturation,16,16\nann,part3_attention,{P3},{P3}\n")


@pytest.fixture(scope="module")
def by_assignment(graded):
    """The same class graded again one assignment at a time, as the nbgrader walkthrough does."""
    subs, root = graded.parent / "class", graded.parent / "by-assignment"
    for a in ("part1_scores", "part2_saturation"):
        assert main(["grade", str(subs), "--out", str(root / a), "--assignment", a, "--no-progress"]) == 0
    return root


def test_several_folders_make_one_canvas_file(by_assignment, capsys):
    (by_assignment / "canvas.csv").write_text("left by an earlier export\n")  # graded/* matches it too
    outs = sorted(str(p) for p in by_assignment.iterdir())
    assert main(["export", *outs, "--format", "canvas"]) == 0
    assert capsys.readouterr().out.endswith("(2 students, 2 assignment(s); it replaces the earlier export)\n")
    assert (by_assignment / "canvas.csv").read_text() == (
        "Student,ID,SIS User ID,SIS Login ID,Section,part1_scores,part2_saturation\n"
        "Points Possible,,,,,14,16\n"
        "'=bob,,,'=bob,,0,0\n"
        "ann,,,ann,,14,16\n")


def test_an_assignment_given_twice_is_refused(graded, by_assignment, capsys):
    assert main(["export", str(graded), str(by_assignment / "part1_scores"), "--format", "csv", "--to", "-"]) == 2
    assert "part1_scores is graded in both" in capsys.readouterr().err


@pytest.mark.parametrize("cell", ["=1+2", "+1", "-1", "@SUM(A1)", "|cmd", "\tx", "\rx", " =1+2", "  +1",
                                  "\u00a0=1", "\u3000=1", "\uff1d1+2", "\uff0b1", "\uff0d1", "\uff20SUM(A1)",
                                  "\uff5ccmd", "\u200b=1", "\ufe66HYPERLINK(1)"])
def test_a_cell_a_spreadsheet_could_run_as_a_formula_gets_a_quote(cell):
    """Issue 35, finding 7: a leading blank, the pipe and full-width forms passed the guard."""
    from graders.outfolder.outfiles import csv_cell

    assert csv_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["ann", "O'Neil, Ann", "3-2", "a=b", "", "x|y", "\u00e9l\u00e8ve"])
def test_a_plain_cell_is_left_as_it_is(cell):
    from graders.outfolder.outfiles import csv_cell

    assert csv_cell(cell) == cell
