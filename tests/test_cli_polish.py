"""What a user's try-out found: the course's variants choice read without nbgrader, an
instructor's comment under show --only-failed, help at 80 columns, a regrade's refusal."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from graders.classroom.authoring.course import BuildError, course_varies
from graders.cli import main
from graders.grading.engine import ROOT
from graders.grading.results import CheckResult, ExerciseResult, gradescope_test, to_gradescope
from graders.kit.outcomes import Outcome


# ------------------------------------------------------------------ A: course build and c.AttnGrade.variants
@pytest.fixture
def no_nbgrader(monkeypatch):
    """As in the demo's environment: neither nbgrader nor traitlets can be imported."""
    for name in ("traitlets", "traitlets.config", "traitlets.config.loader"):
        monkeypatch.setitem(sys.modules, name, None)


def local(course, text):
    course.mkdir(exist_ok=True)
    (course / "nbgrader_config_local.py").write_text("c = get_config()\n" + text)


def test_without_nbgrader_the_plain_line_is_read(tmp_path, no_nbgrader):
    local(tmp_path, "# c.AttnGrade.variants = True\n")
    assert course_varies(tmp_path) is False
    local(tmp_path, "c.AttnGrade.variants = True\n")
    assert course_varies(tmp_path) is True
    local(tmp_path, "c.AttnGrade.variants = True\nc.AttnGrade.variants = False\n")
    assert course_varies(tmp_path) is False


@pytest.mark.parametrize("text", ["import os\nif os.environ.get('V'):\n    c.AttnGrade.variants = True\n",
                                  "c.AttnGrade.variants = 1\n", "load_subconfig('more.py')\n",
                                  "setattr(c.AttnGrade, 'variants', True)\n"])
def test_without_nbgrader_a_setting_it_cannot_read_stops_the_build(tmp_path, no_nbgrader, text, capsys):
    course = tmp_path / "course"
    local(course, text)
    with pytest.raises(BuildError, match="nbgrader is not installed"):
        course_varies(course)
    assert main(["course", "build", "--course", str(course)]) == 2
    err = capsys.readouterr().err
    assert "c.AttnGrade.variants" in err and "python3 tasks.py instructor" in err and "Traceback" not in err
    assert not (course / "source").exists()  # nothing written


def test_turning_variants_on_counts_course_json_as_changed(tmp_path, capsys):
    course = tmp_path / "course"
    assert main(["course", "build", "--course", str(course)]) == 0
    assert "everyone the text's numbers" in capsys.readouterr().out
    with open(course / "nbgrader_config_local.py", "a") as f:
        f.write("c.AttnGrade.variants = True\n")
    assert main(["course", "build", "--course", str(course)]) == 0
    out = capsys.readouterr().out
    assert "updated: source/part1_scores/attn_checks/course.json" in out
    assert "0 file(s) changed" not in out and "each student their own numbers" in out
    assert json.loads((course / "source/part1_scores/attn_checks/course.json").read_text()) == {"variants": True}


# ------------------------------------------------------------------ B: show --only-failed
def results_with_a_comment(path):
    r = ExerciseResult("softmax", "Softmax", [
        CheckResult("softmax", "rows sum to one", 2, 2, Outcome.PASSED, "", "public"),
        CheckResult("softmax", "stable for large scores", 0, 3, Outcome.FAILED, "got nan", "public")])
    data = to_gradescope([r])
    note = gradescope_test("softmax", CheckResult("softmax", "a comment from your instructor", 0, 0, Outcome.PASSED,
                                                  "Subtract each row's maximum first.", "public"))
    note["extra_data"]["comment"] = "softmax.0123456789abcdef"  # as classroom/report/comments.py marks it
    data["tests"].append(note)
    path.write_text(json.dumps(data))
    return path


def test_show_only_failed_keeps_the_instructors_comment_and_the_points(tmp_path, capsys):
    path = results_with_a_comment(tmp_path / "results.json")
    assert main(["show", str(path), "--only-failed", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "a comment from your instructor" in out and "Subtract each row's maximum first." in out
    assert "stable for large scores" in out and "rows sum to one" not in out
    assert "softmax: 2/5" in out and "Total: 2/5" in out


# ------------------------------------------------------------------ C: help at 80 columns
def help_of(command, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["grade", "variant", "watch", "show"])
def test_help_fits_80_columns_and_never_splits_the_commands_name(command, monkeypatch, capsys):
    lines = help_of(command, monkeypatch, capsys).splitlines()
    assert max(map(len, lines)) <= 80
    assert not [line for line in lines if line.rstrip().endswith("attn-")]


def test_show_help_explains_its_arguments(monkeypatch, capsys):
    text = " ".join(help_of("show", monkeypatch, capsys).split())
    assert "RESULTS_JSON one or more results.json files" in text and "--color {auto,always,never} colour" in text


def test_the_learners_variant_help_names_no_other_command(monkeypatch, capsys):
    from graders.cli import variant

    monkeypatch.setattr(variant, "COMMAND", "attn-learn")  # as in the student bundle
    usage, text = help_of("variant", monkeypatch, capsys).split("\n\n", 1)  # the usage line: the parser's name
    assert "attn-grade" not in "".join(text.split())  # nor split across lines


# ------------------------------------------------------------------ D: a regrade with variants turned the other way
@pytest.mark.parametrize("first, then, says", [(["--variants"], [], "To grade as before, add --variants (or, with --nbgrader-course, c.AttnGrade.variants = True"),
                                               ([], ["--variants"], "To grade as before, leave out --variants")])
def test_a_regrade_with_variants_turned_the_other_way_is_grades_own_error(tmp_path, capsys, first, then, says):
    (tmp_path / "class" / "ann").mkdir(parents=True)
    shutil.copyfile(ROOT / "exercises" / "hand_scores.py", tmp_path / "class" / "ann" / "hand_scores.py")
    args = ["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--jobs", "1", "--no-progress",
            "--assignment", "part1_scores"]
    assert main(args + first) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(args + then)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("attn-grade grade: ") and "usage:" not in err
    assert says in " ".join(err.split())


def test_a_regrade_of_other_exercises_without_variants_is_told_about_the_variants_first(tmp_path, capsys):
    """Both refusals apply; the one about variants comes first, or --force would look like the fix."""
    (tmp_path / "class" / "ann").mkdir(parents=True)
    shutil.copyfile(ROOT / "exercises" / "hand_scores.py", tmp_path / "class" / "ann" / "hand_scores.py")
    args = ["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--jobs", "1", "--no-progress"]
    assert main(args + ["--assignment", "part1_scores", "--variants"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(args)  # every exercise, and no --variants
    assert "To grade as before, add --variants" in " ".join(capsys.readouterr().err.split())
