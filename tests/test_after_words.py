"""What `attn-grade check` says after a grade that is not full: a hints file it cannot read (an
exercise being written, a 'Lesson:' line of several words) costs the sentence, never the report."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from graders.cli import check, hint


def test_a_hints_file_that_cannot_be_read_leaves_the_grade_and_says_why(monkeypatch, tmp_path):
    (tmp_path / "demo_ex.md").write_text("# Hints for demo_ex\n\nLesson: TODO (the lesson)\n\n## Hint\nSee: x § y\n\nz\n")
    monkeypatch.setattr(hint, "HINTS", tmp_path)
    behind = SimpleNamespace(exercise="demo_ex", points=0, max_points=2, missing=False)
    said = check.after_words([behind], [SimpleNamespace(path=Path("demo_ex.py"))], tmp_path)
    assert said.startswith("stuck on demo_ex? its hints cannot be read: ") and "Lesson: <notebook>.ipynb" in said


def test_readable_hints_are_counted(monkeypatch, tmp_path):
    (tmp_path / "demo_ex.md").write_text("# Hints\n\nLesson: 01_x.ipynb\n\n## Hint\nSee: 01_x.ipynb § A\n\nnudge\n")
    monkeypatch.setattr(hint, "HINTS", tmp_path)
    behind = SimpleNamespace(exercise="demo_ex", points=0, max_points=2, missing=False)
    said = check.after_words([behind], [SimpleNamespace(path=Path("demo_ex.py"))], tmp_path)
    assert said.endswith("hint demo_ex' (1 hints, one at a time)"), said
