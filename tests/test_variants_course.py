"""Variants in an nbgrader course (kit/variants.py): c.AttnGrade.variants = True in the course's
nbgrader_config_local.py makes `attn-grade grade --nbgrader-course` grade each student on their own
numbers, and the integrity report names a notebook whose id is another student's, and an answer
right for a classmate's variant."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support import nbclass  # noqa: E402
from test_variants import solution_for  # noqa: E402

from graders.cli import main  # noqa: E402
from graders.classroom.integrity import integrity  # noqa: E402
from graders.kit import variants  # noqa: E402


def with_id(answer: str, student: str):
    def change(nb):
        nbclass.set_answer(nb, "hand_scores", answer)
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and integrity.typed_id("".join(cell["source"])) is not None:
                cell["source"] = f'STUDENT_ID = "{student}"'
        return nb
    return change


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    pytest.importorskip("nbgrader")
    root = tmp_path_factory.mktemp("variants-course")
    course = nbclass.make_course(root / "course")
    (course / "nbgrader_config_local.py").write_text("c = get_config()\nc.AttnGrade.variants = True\n")
    ann = solution_for(variants.of("part1_scores", "ann"))
    nbclass.submit(course, "ann", {"hand_scores": with_id(ann, "ann")})
    nbclass.submit(course, "fay", {"hand_scores": with_id(ann, "ann")})  # ann's notebook, handed in by fay
    nbclass.submit(course, "gus", {"hand_scores": with_id(solution_for(0), "")})
    out = root / "graded"
    assert main(["grade", str(course / "submitted"), "--out", str(out), "--nbgrader-course", str(course),
                 "--assignment", "part1_scores", "--no-progress", "--jobs", "2"]) == 0
    return course, out


def hand_scores(out: Path, student: str) -> float:
    data = json.loads((out / "students" / student / "results.json").read_text())
    return sum(t["score"] for t in data["tests"] if t["exercise"] == "hand_scores")


def test_the_course_grades_each_student_on_their_own_numbers(graded):
    _, out = graded
    assert hand_scores(out, "ann") == 8
    assert hand_scores(out, "fay") < 4 and hand_scores(out, "gus") < 4


def test_the_integrity_report_names_the_id_and_the_variant_of_another_student(graded):
    _, out = graded
    found = json.loads((out / "integrity.json").read_text())
    flags = {(f["student"], f["kind"]): f["detail"] for f in found}
    assert {f["where"] for f in found if f["student"] == "fay"} == {"part1_scores/hand_scores.ipynb"}
    assert "'ann'" in flags["fay", "id does not match its folder"]
    assert "the variant of ann" in flags["fay", "another student's variant"]
    assert not [k for k in flags if k[0] in ("ann", "gus") and k[1] in ("id does not match its folder",
                                                                      "another student's variant")]


def test_a_student_whose_id_cell_names_another_is_told_why_in_the_feedback(graded):
    _, out = graded
    told = {s: " ".join(t["output"] for t in json.loads((out / "students" / s / "results.json").read_text())["tests"])
            for s in ("ann", "fay", "gus")}
    assert "Your STUDENT_ID cell says 'ann', but this notebook was handed in as fay's" in told["fay"]
    assert "STUDENT_ID" not in told["ann"] and "STUDENT_ID" not in told["gus"]


def test_the_nbgrader_gradebook_holds_the_variant_scores(graded):
    course, _ = graded
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "attn-exercises") as gb:
        scores = {s: gb.find_submission_notebook("hand_scores", "part1_scores", s).score for s in ("ann", "fay")}
    assert scores["ann"] == 8 and scores["fay"] < 4


def test_a_gradescope_archive_built_with_variants_grades_the_submitter_on_their_numbers(tmp_path):
    """Gradescope's run_autograder, in its folder layout: the submitter is the email in
    submission_metadata.json; without one, the text's numbers, and the output says so."""
    from test_gradescope import _autograde, _total

    archive = tmp_path / "autograder.zip"
    assert main(["gradescope", str(archive), "--exercises", "hand_scores", "--variants"]) == 0
    ann = variants.of("part1_scores", "ann@uni.example")
    files = {"hand_scores.py": solution_for(ann),
             "../submission_metadata.json": json.dumps({"users": [{"email": "ann@uni.example", "sid": ""}]})}
    data = _autograde(archive, tmp_path / "a", files)
    assert _total(data) == 8 and data["extra_data"]["variants"] == {"hand_scores": ann}
    seed = _autograde(archive, tmp_path / "b", {"hand_scores.py": solution_for(0)})
    assert _total(seed) == 8 and "No submitter's email" in seed["output"]


def test_the_autograded_notebook_says_which_numbers_it_was_graded_on(graded):
    """What formgrader and nbgrader's feedback show: the test cells' reports name the student's variant."""
    course, _ = graded
    nb = json.loads((course / "autograded" / "fay" / "part1_scores" / "hand_scores.ipynb").read_text())
    shown = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert f"graded on your own numbers, variant {variants.of('part1_scores', 'fay')}" in shown
