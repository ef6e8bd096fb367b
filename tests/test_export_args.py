"""`attn-grade export graded/*`: what the glob brings besides OUT folders. An earlier export (its
default name, or the first rows this command writes) is passed over calmly; any other file, or a path
that is not there, is a usage error naming it."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from graders import registry
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent
CANVAS = ("Student,ID,SIS User ID,SIS Login ID,Section,part1_scores,part2_saturation\n"
          "Points Possible,,,,,14,16\n"
          "'=bob,,,'=bob,,0,0\n"
          "ann,,,ann,,14,16\n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """graded/part1_scores and graded/part2_saturation, as the nbgrader walkthrough grades a class."""
    root = tmp_path_factory.mktemp("export-args")
    subs = root / "class"
    (subs / "ann").mkdir(parents=True)
    (subs / "=bob").mkdir()
    for e in registry.EXERCISES:
        shutil.copy(ROOT / "solutions" / f"{e.slug}.py", subs / "ann" / f"{e.slug}.py")
    for a in ("part1_scores", "part2_saturation"):
        assert main(["grade", str(subs), "--out", str(root / "graded" / a), "--assignment", a, "--no-progress"]) == 0
    return root / "graded"


@pytest.fixture
def folder(graded, tmp_path):
    """A copy of graded/ to leave files in."""
    return Path(shutil.copytree(graded, tmp_path / "graded"))


def _glob(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.iterdir())  # what the shell's graded/* gives


def test_an_earlier_export_in_the_glob_is_passed_over_without_alarm(folder, capsys):
    assert main(["export", *_glob(folder), "--format", "canvas"]) == 0  # the first export: graded/canvas.csv
    capsys.readouterr()
    assert main(["export", *_glob(folder), "--format", "csv"]) == 0  # canvas.csv is in graded/* now
    assert main(["export", *_glob(folder), "--format", "canvas"]) == 0  # and grades-by-assignment.csv too
    said = capsys.readouterr()
    assert said.err == ""
    assert "skipped" not in said.out and "not a folder" not in said.out
    assert (folder / "canvas.csv").read_text() == CANVAS
    assert said.out.splitlines() == [
        f"wrote {folder / 'grades-by-assignment.csv'} (2 students, 2 assignment(s))",
        f"not read: {folder / 'canvas.csv'} (an earlier export)",
        f"wrote {folder / 'canvas.csv'} (2 students, 2 assignment(s); it replaces the earlier export)",
        f"not read: {folder / 'grades-by-assignment.csv'} (an earlier export)"]


def test_an_export_under_another_name_is_known_by_its_first_rows(folder, capsys):
    (folder / "for-canvas.csv").write_text(CANVAS)
    (folder / "by-assignment.csv").write_text("student,assignment,score,max_score\nann,part1_scores,14,14\n")
    assert main(["export", *_glob(folder), "--format", "canvas", "--to", str(folder / "new.csv")]) == 0
    said = capsys.readouterr()
    assert said.err == "" and (folder / "new.csv").read_text() == CANVAS
    assert said.out.splitlines()[1:] == [f"not read: {folder / 'by-assignment.csv'}, {folder / 'for-canvas.csv'} "
                                         f"(earlier exports)"]


def test_with_stdout_as_the_target_only_the_csv_is_written_there(folder, capsys):
    (folder / "canvas.csv").write_text(CANVAS)
    assert main(["export", *_glob(folder), "--format", "csv", "--to", "-"]) == 0
    said = capsys.readouterr()
    rows = list(csv.reader(said.out.splitlines()))
    assert rows[0] == ["student", "assignment", "score", "max_score"] and len(rows) == 1 + 2 * 2
    assert said.err == ""


def test_a_file_that_is_no_export_is_a_usage_error_naming_it(folder, capsys):
    (folder / "notes.txt").write_text("bob asked for an extension\n")
    with pytest.raises(SystemExit) as info:
        main(["export", *_glob(folder), "--format", "canvas"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and f"{folder / 'notes.txt'}: a file, neither a folder" in err
    assert not (folder / "canvas.csv").exists()


def test_a_path_that_is_not_there_is_a_usage_error_naming_it(folder, capsys):
    with pytest.raises(SystemExit) as info:
        main(["export", str(folder / "part1_scores"), str(folder / "part3"), "--format", "canvas"])
    assert info.value.code == 2 and f"{folder / 'part3'}: no such file or folder" in capsys.readouterr().err


def test_an_earlier_export_alone_is_a_usage_error(folder, capsys):
    (folder / "canvas.csv").write_text(CANVAS)
    with pytest.raises(SystemExit) as info:
        main(["export", str(folder / "canvas.csv"), "--format", "canvas"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and f"{folder / 'canvas.csv'}: an earlier export" in err
    assert "give the --out folder(s) of 'attn-grade grade'" in err
    assert (folder / "canvas.csv").read_text() == CANVAS  # not overwritten by nothing
