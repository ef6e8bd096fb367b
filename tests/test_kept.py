"""Full-marks results kept for the next check (graders/cli/fullmarks.py): a kept result is the one a
new run gives, and it is dropped as soon as anything it depends on changes."""

import json
import os
import shutil

import pytest

from cases import view
from graders.cli import fullmarks, main
from graders.cli.session import Session
from graders.cli.where import Target
from graders.grading import engine
from graders.grading.engine import ROOT
from graders.sandbox.errors import NOT_WRITTEN
from graders.grading.settings import Settings

MUTANT = ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    work = tmp_path / "exercises"
    work.mkdir()
    for slug in ("softmax", "attention", "hand_scores"):
        shutil.copy(ROOT / "solutions" / f"{slug}.py", work / f"{slug}.py")
    return work


def grade(folder, slug, **settings):
    session = Session(Settings.from_environ(), **settings)
    try:
        return session.grade(Target(slug, folder / f"{slug}.py"))
    finally:
        session.close()


def count_gradings(monkeypatch) -> list:
    """A list that gets one item each time a file is graded (not shown from what was kept)."""
    calls, real = [], engine.grade_file
    monkeypatch.setattr(engine, "grade_file", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


@pytest.fixture
def no_grading(monkeypatch):
    """From now on, a file that is graded fails the test: only kept results may be shown."""
    def refuse(*args, **kwargs):
        raise AssertionError("the file was graded again")

    return lambda: monkeypatch.setattr(engine, "grade_file", refuse)


def test_a_kept_result_is_the_one_a_new_run_gives(folder, no_grading):
    live = {slug: grade(folder, slug) for slug in ("softmax", "hand_scores")}
    for slug, result in live.items():
        assert result.points == result.max_points > 0
        assert view(grade(folder, slug, fresh=True)) == view(result)  # --fresh: graded again, the same
    no_grading()
    for slug, result in live.items():
        again = grade(folder, slug)
        assert view(again) == view(result)
        assert (again.exercise, again.title, again.points, again.max_points, again.problem, again.missing) == \
            (result.exercise, result.title, result.points, result.max_points, result.problem, result.missing)


def test_a_result_below_full_marks_is_never_kept(folder, monkeypatch):
    shutil.copy(MUTANT, folder / "softmax.py")
    first = grade(folder, "softmax")
    assert first.points < first.max_points
    calls = count_gradings(monkeypatch)
    assert view(grade(folder, "softmax")) == view(first) and calls == [1]


@pytest.mark.parametrize("change", ["the file", "a file it imports", "a file nobody mentions", "the graders",
                                    "the timeout", "public checks only"])
def test_a_change_to_what_the_result_depends_on_grades_again(folder, monkeypatch, change):
    (folder / "attention.py").write_text((folder / "attention.py").read_text() + "\nimport shared  # noqa\n")
    (folder / "shared.py").write_text("import helpers\n")
    (folder / "helpers.py").write_text("SCALE = 1\n")
    grade(folder, "attention")
    settings = {}
    if change == "the file":
        (folder / "attention.py").write_text((folder / "attention.py").read_text() + "\n# changed\n")
    elif change == "a file it imports":  # through another: attention imports shared, which imports helpers
        (folder / "helpers.py").write_text("SCALE = 2\n")
    elif change == "a file nobody mentions":  # the graded run could still read it: it is in the sandbox
        (folder / "notes.py").write_text("x = 1\n")
    elif change == "the graders":
        monkeypatch.setattr(fullmarks, "code_digest", lambda: "graders of another version")
    elif change == "the timeout":
        settings["timeout"] = 5.0
    else:
        settings["public_only"] = True
    calls = count_gradings(monkeypatch)
    grade(folder, "attention", **settings)
    assert calls == [1], f"{change} changed, and the kept result was shown"


# softmax.py imports a helper whose name it never writes: it lists its folder and imports what it finds.
BY_COMPUTED_NAME = '''import importlib
import os


def softmax(z, axis=-1):
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(n[:-3] for n in os.listdir(here) if n.endswith(".py") and n.startswith("m"))
    return importlib.import_module(found[0]).softmax(z, axis)
'''


def test_a_helper_found_by_a_computed_name_is_covered(folder, monkeypatch):
    """Issue 20, finding 8: after such a helper broke, check still showed 10/10."""
    (folder / "softmax.py").write_text(BY_COMPUTED_NAME)
    (folder / "mine.py").write_text((ROOT / "solutions" / "softmax.py").read_text())
    assert grade(folder, "softmax").points == 10
    shutil.copy(MUTANT, folder / "mine.py")  # the helper breaks; softmax.py is unchanged
    calls = count_gradings(monkeypatch)
    again = grade(folder, "softmax")
    assert calls == [1] and again.points < 10


def test_what_the_sandbox_does_not_take_changes_nothing(folder, no_grading, tmp_path):
    """Files the sandbox never copies (not .py, a link, one over its size limit) cannot change a grade."""
    (folder / "notes.txt").write_text("first thoughts\n")
    (tmp_path / "elsewhere.py").write_text("x = 1\n")
    os.symlink(tmp_path / "elsewhere.py", folder / "linked.py")
    with open(folder / "huge.py", "wb") as f:
        f.truncate(2 << 20)  # 2 MB: the sandbox takes at most 1 MB a file
    first = grade(folder, "softmax")
    assert first.points == 10
    (folder / "notes.txt").write_text("second thoughts\n")
    (tmp_path / "elsewhere.py").write_text("x = 2\n")
    with open(folder / "huge.py", "r+b") as f:
        f.write(b"# changed")
    no_grading()
    assert view(grade(folder, "softmax")) == view(first)


def test_a_file_that_changes_while_it_is_graded_is_not_kept(folder, monkeypatch):
    real = engine.grade_file

    def edited_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        (folder / "softmax.py").write_text((folder / "softmax.py").read_text() + "\n# saved meanwhile\n")
        return result

    monkeypatch.setattr(engine, "grade_file", edited_meanwhile)
    grade(folder, "softmax")
    assert not list((folder.parent / "cache" / "kept").glob("*.json"))


def test_nothing_is_kept_inside_the_learners_folder(folder, monkeypatch):
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(folder / "cache"))
    grade(folder, "softmax")
    assert not (folder / "cache" / "kept").exists()


def test_an_altered_kept_file_is_ignored(folder, monkeypatch):
    grade(folder, "softmax")
    grade(folder, "hand_scores")
    store = folder.parent / "cache" / "kept"
    files = {json.loads(p.read_text())["result"]["exercise"]: p for p in store.glob("*.json")}
    files["softmax"].write_text(files["hand_scores"].read_text())  # another exercise's result
    calls = count_gradings(monkeypatch)
    assert grade(folder, "softmax").exercise == "softmax" and calls == [1]
    files["softmax"].write_text("{not json")
    assert grade(folder, "softmax").exercise == "softmax" and calls == [1, 1]


def test_check_says_which_files_it_did_not_run_again(folder, capsys):
    assert main(["check", "--dir", str(folder), "softmax", "attention"]) == 0
    first = capsys.readouterr().out
    assert "not run again" not in first
    assert main(["check", "--dir", str(folder), "softmax", "attention"]) == 0
    again = capsys.readouterr().out
    assert "2 unchanged files were not run again (full marks or a stub; --fresh runs them)" in again
    assert again.split("Summary")[0] == first.split("Summary")[0]  # every check, as before
    assert main(["check", "--dir", str(folder), "softmax", "--fresh"]) == 0
    assert "not run again" not in capsys.readouterr().out


def test_a_stub_is_kept_and_a_part_written_file_is_not(folder, monkeypatch):
    shutil.copy(ROOT / "exercises" / "softmax.py", folder / "softmax.py")
    stub = grade(folder, "softmax")
    assert stub.points == 0 and all(NOT_WRITTEN in c.message for c in stub.checks)
    calls = count_gradings(monkeypatch)
    assert view(grade(folder, "softmax")) == view(stub) and calls == []
    source = (ROOT / "solutions" / "softmax.py").read_text()  # written, but not yet for axis=0
    head = "def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:"
    assert head in source
    (folder / "softmax.py").write_text(source.replace(head, head + "\n    if axis == 0:\n"
                                                      "        raise NotImplementedError\n", 1))
    first = grade(folder, "softmax")
    assert 0 < first.points < first.max_points and calls == [1]
    grade(folder, "softmax")
    assert calls == [1, 1]
