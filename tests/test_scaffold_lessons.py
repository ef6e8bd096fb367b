"""A lesson ``attn-grade course new`` wrote as a placeholder (graders/classroom/authoring/scaffold.py) is named in
every run of the tests: the new exercise's hints point to its TODO sections, so its tests pass, but
the run's summary says which exercise has no lesson yet, and where the placeholder is."""

import json
from pathlib import Path

import pytest

from graders.classroom.authoring.scaffold import MARK, placeholder_lesson, placeholders

ROOT = Path(__file__).resolve().parent.parent


def test_every_lesson_is_written():
    left = placeholders(ROOT)
    if left:
        pytest.skip("no lesson yet for " + "; ".join(f"{slug}: {path.relative_to(ROOT)} is the placeholder "
                                                       f"'attn-grade course new' wrote" for slug, path in left.items()))


def test_a_placeholder_is_told_from_a_lesson(tmp_path):
    lessons = tmp_path / "course" / "lessons"
    lessons.mkdir(parents=True)
    (lessons / "01_real.ipynb").write_text((ROOT / "course" / "lessons" / "01_queries_keys_values.ipynb").read_text())
    made = placeholder_lesson(2, "rope", "Rotary position embeddings", ["1. TODO: a section"])
    (lessons / "02_rope.ipynb").write_text(made)
    assert placeholders(tmp_path) == {"rope": lessons / "02_rope.ipynb"}
    nb = json.loads((lessons / "02_rope.ipynb").read_text())
    assert nb["metadata"][MARK] == "rope" and nb["metadata"]["kernelspec"]["name"] == "python3"
    assert nb["cells"][0]["source"][0] == "# Lesson 2 · Rotary position embeddings (not written yet)\n"
    assert "## 1. TODO: a section\n" in nb["cells"][1]["source"]
