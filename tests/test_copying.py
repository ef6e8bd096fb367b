"""Copying seen by behaviour and by structure (classroom/integrity/copying.py): on a made-up class, a planted
copy (renamed, re-indented, its functions reordered) is found, and neither independent right answers
nor students sharing a common mistake are flagged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.classroom.integrity import copying
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent
MUTANTS, ALTERNATIVES = ROOT / "tests" / "mutants", ROOT / "tests" / "alternatives"
NEW_KINDS = {"shared rare mistake", "similar code"}

# The original: a mistake no hint names, in two exercises.
ORIGINAL = {
    "softmax": '''import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    shifted = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(shifted)
    w = e / np.sum(e, axis=axis, keepdims=True)
    return np.round(w, 3)
''',
    "worked_example": '''import numpy as np


def head_dim(d_model, n_heads):
    if d_model % n_heads != 0:
        raise ValueError("n_heads does not divide d_model")
    return d_model // n_heads


def scale_scores(raw, d_k):
    raw = np.asarray(raw, dtype=np.float64)
    return raw / np.sqrt(d_k + 1)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    w = np.exp(s - np.max(s))
    return 100 * w / np.sum(w)
''',
}
# The copy: other names, comments, two-space indents, the functions in another order.
COPY = {
    "softmax": '''import numpy as np

# softmax along an axis
def softmax(scores, axis=-1):
  scores = np.asarray(scores, dtype=np.float64)
  centred = scores - np.max(scores, axis=axis, keepdims=True)   # stable
  ex = np.exp(centred)
  weights = ex / np.sum(ex, axis=axis, keepdims=True)
  return np.round(weights, 3)
''',
    "worked_example": '''import numpy as np

def softmax_percent(raw_scores, dk, scaled=True):
  # percent weights
  vals = scale_scores(raw_scores, dk) if scaled else np.asarray(raw_scores, dtype=np.float64)
  ws = np.exp(vals - np.max(vals))
  return 100 * ws / np.sum(ws)

def scale_scores(raw_scores, dk):
  raw_scores = np.asarray(raw_scores, dtype=np.float64)
  return raw_scores / np.sqrt(dk + 1)

def head_dim(model_width, heads):
  if model_width % heads != 0:
    raise ValueError("heads does not divide model_width")
  return model_width // heads
''',
}


def class_files() -> dict:
    """student -> {slug: source text}."""
    files = {}
    for i in range(8):  # a common mistake: eight students with the same softmax, six the same worked_example
        files[f"common_{i}"] = {"softmax": (MUTANTS / "softmax" / "no_keepdims.py").read_text()}
        if i < 6:
            files[f"common_{i}"]["worked_example"] = (MUTANTS / "worked_example" / "inverted_flag.py").read_text()
    right = [ROOT / "solutions" / "softmax.py", *sorted((ALTERNATIVES / "softmax").glob("*.py"))]
    right_we = [ROOT / "solutions" / "worked_example.py", *sorted((ALTERNATIVES / "worked_example").glob("*.py"))]
    for i in range(4):  # independent right answers, each written otherwise
        files[f"right_{i}"] = {"worked_example": right_we[i].read_text()}
        if i < len(right):
            files[f"right_{i}"]["softmax"] = right[i].read_text()
    for i in range(2):  # two who left both exercises as the stubs: the same "wrong" answers, no sign of copying
        files[f"idle_{i}"] = {slug: (ROOT / "exercises" / f"{slug}.py").read_text() for slug in ORIGINAL}
    files["original"], files["copier"] = dict(ORIGINAL), dict(COPY)
    return files


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("copying")
    for student, answers in class_files().items():
        (root / "class" / student).mkdir(parents=True)
        for slug, text in answers.items():
            (root / "class" / student / f"{slug}.py").write_text(text)
    out = root / "out"
    assert main(["grade", str(root / "class"), "--out", str(out), "--jobs", "2", "--no-progress"]) == 0
    flags = json.loads((out / "integrity.json").read_text())
    return out, [f for f in flags if f["kind"] in NEW_KINDS]


def test_the_planted_copy_is_found_by_behaviour_and_by_structure(graded):
    out, flags = graded
    mine = {(f["student"], f["kind"]) for f in flags}
    for student in ("original", "copier"):
        assert (student, "shared rare mistake") in mine and (student, "similar code") in mine
    rare = next(f for f in flags if f["student"] == "copier" and f["kind"] == "shared rare mistake")
    assert "original" in rare["detail"] and "softmax" in rare["detail"] and "worked_example" in rare["detail"]
    similar = [f["where"] for f in flags if f["student"] == "copier" and f["kind"] == "similar code"]
    assert "worked_example.py" in similar


def test_independent_right_answers_a_common_mistake_and_untouched_stubs_are_not_flagged(graded):
    out, flags = graded
    assert {f["student"] for f in flags} == {"original", "copier"}


def test_the_evidence_is_kept_and_shown_side_by_side(graded):
    out, _ = graded
    found = json.loads((out / "copying.json").read_text())
    code = next(x for x in found if x["kind"] == "similar code" and x["exercise"] == "worked_example")
    assert code["students"] == ["copier", "original"]
    for pieces, source in zip(code["code"], (COPY["worked_example"], ORIGINAL["worked_example"])):
        assert "".join(text for text, _ in pieces) == source  # the whole file, cut into spans
        assert any(hit for _, hit in pieces)
    rare = next(x for x in found if x["kind"] == "shared rare mistake")
    assert [x["exercise"] for x in rare["exercises"]] == ["worked_example", "softmax"]
    assert all(x["size"] == 2 and x["shown"] for x in rare["exercises"])
    assert main(["report", str(out)]) == 0
    page = (out / "report.html").read_text()
    section = page[page.index("<h2 id=copying>"):page.index("<h2>Students</h2>")]
    assert "copier and original: similar worked_example code" in section and "<mark>" in section
    assert "copier and original: shared rare mistake" in section


def test_a_report_on_some_assignments_shows_their_evidence_only(graded):
    out, _ = graded

    def section(assignment):
        assert main(["report", str(out), "--assignment", assignment]) == 0
        page = (out / "report.html").read_text()
        return page[page.index("<h2 id=copying>"):page.index("<h2>Students</h2>")]

    try:
        part2 = section("part2_saturation")  # worked_example; the softmax evidence belongs to part 3
        assert "similar worked_example code" in part2 and "similar softmax code" not in part2
        assert "shared rare mistake" in part2 and "<li>worked_example: both" in part2
        assert "<li>softmax: both" not in part2
        assert "copier and original" not in section("part1_scores")
    finally:
        assert main(["report", str(out)]) == 0  # the module's report as the other tests see it


def test_the_code_comparison_is_the_same_whatever_the_hash_seed_of_the_grader(tmp_path):
    """copydetect hashes with Python's hash(): the comparison runs where the seed is fixed."""
    demo = ROOT / "demo" / "submissions"
    codes = {"attention": {s.name: ("attention.py", (s / "attention.py").read_text())
                           for s in sorted(demo.iterdir()) if (s / "attention.py").is_file()}}
    script = ("import json, sys; from graders.classroom.integrity import codematch; "
              "print(json.dumps(codematch.compare(json.loads(sys.argv[1]), {})))")
    seen = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", script, json.dumps(codes)], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONHASHSEED=seed), check=True)
        seen.add(done.stdout)
    (flags, evidence), = [json.loads(s) for s in seen]  # one outcome
    assert sorted(f[0] for f in flags) == ["ben", "dan"] and evidence[0]["students"] == ["ben", "dan"]


def test_the_report_says_a_flag_is_symmetric_and_names_the_pairs_that_share_a_variant():
    """Issue 35, finding 9: two students on one variant may hand in one answer in two exact forms unflagged;
    the report says so, names those pairs, and says a flag cannot tell the copier from the source."""
    from graders import registry
    from graders.classroom.report.analysis import Class, StudentResults

    def student(name, variant):
        return StudentResults(name, {"hand_scores": 1.0}, 1.0, [], variants={"hand_scores": variant} if variant else {})

    klass = Class([student("ann", 3), student("bob", 7), student("cy", 3), student("dee", 3)],
                  [registry.get("hand_scores")], [])
    page = copying.section([], klass)
    assert "says nothing of who copied from whom" in page
    assert "hand_scores: 3 pair(s) (ann and cy, ann and dee, cy and dee)" in page
    plain = copying.section([], Class([student("ann", 0), student("bob", 0)], [registry.get("hand_scores")], []))
    assert "Same variant" not in plain and "says nothing of who copied from whom" in plain
