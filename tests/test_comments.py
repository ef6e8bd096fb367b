"""Groups of submissions that answer alike, and one instructor's comment for a whole group
(grading/behaviour.py, classroom/report/groups.py, classroom/report/comments.py)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from graders.classroom.report import analysis, comments, groups
from graders.cli import main
from graders.grading.behaviour import token_of
from graders.sandbox.inside import worker

ROOT = Path(__file__).resolve().parent.parent
MUTANT = ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py"


def answer(value, printed=None):
    msg = {"ok": True, "value": worker.encode(value)}  # as a worker sends it
    return dict(msg, printed=printed) if printed else msg


def test_a_token_is_the_same_for_answers_equal_once_rounded_and_differs_otherwise():
    a = np.array([[0.1 + 0.2, 1 / 3], [-0.0, 2.0]])
    same = np.array([[0.3, 0.3333333333333333], [0.0, 2.0]])  # 1 ulp apart, and +0.0 for -0.0
    assert token_of(answer(a)) == token_of(answer(same))
    assert token_of(answer(a)) != token_of(answer(a * 1.001))
    assert token_of(answer(a)) != token_of(answer(a.astype(np.float32)))  # another dtype is another answer
    assert token_of(answer(a)) != token_of(answer(a.reshape(4)))
    assert token_of(answer(a, printed="ZGVidWc=")) == token_of(answer(a))  # what a call printed is left out
    assert token_of({"ok": False, "error": {"type": "ValueError"}}) == "raised ValueError"
    assert token_of({"ok": True, "value": {"__nd__": "forged"}}) == "unreadable"
    assert token_of(answer(float("nan"))) == token_of(answer(float("nan")))
    assert token_of(answer(np.float64(0.5))) != token_of(answer(0.5))  # a NumPy scalar is not a float
    assert token_of(answer(np.array([1, 2]))) != token_of(answer(np.array([1.0, 2.0])))


BOBS = """import numpy as np

# my own softmax
def softmax(scores, axis=-1):
    weights = np.exp(scores)
    total = np.sum(weights, axis=axis, keepdims=True)
    return weights / total
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of four for softmax: the same mistake written twice (once renamed), the reference, an
    alternative; graded once with the command."""
    root = tmp_path_factory.mktemp("comments")
    subs = root / "class"
    for name, source in (("ann", MUTANT), ("bob", MUTANT), ("cat", ROOT / "solutions" / "softmax.py"),
                         ("dan", ROOT / "tests" / "alternatives" / "softmax" / "logsumexp.py")):
        (subs / name).mkdir(parents=True)
        shutil.copyfile(source, subs / name / "softmax.py")
    (subs / "bob" / "softmax.py").write_text(BOBS)  # the same mistake, written otherwise
    out = root / "out"
    assert main(["grade", str(subs), "--out", str(out), "--jobs", "1", "--no-progress"]) == 0
    return subs, out


def results(out: Path, student: str) -> dict:
    return json.loads((out / "students" / student / "results.json").read_text())


def softmax_group(out: Path, student: str) -> str:
    return "softmax." + results(out, student)["extra_data"]["behaviour"]["softmax"]["signature"]


def test_the_same_mistake_written_twice_is_one_group_and_correct_answers_another(graded):
    subs, out = graded
    klass = analysis.load(out)
    found = {g.key: g for g in groups.of(klass)["softmax"]}
    mistake = found[softmax_group(out, "ann")]
    assert mistake.members == ["ann", "bob"] and mistake.answers_otherwise and mistake.differ > 0
    assert mistake.shown and "softmax(" in mistake.shown[0]["call"]
    right = found[softmax_group(out, "cat")]
    assert right.members == ["cat", "dan"] and not right.answers_otherwise and right.differ == 0
    assert "missing" not in {m for g in found.values() for m in g.members}


def test_without_comments_the_command_writes_a_starter_naming_the_group(graded, capsys):
    subs, out = graded
    assert main(["comment", str(out)]) == 0
    text = (out / "comments.toml").read_text()
    assert f"# [{softmax_group(out, 'ann')}]" in text and "2 students (ann, bob)" in text
    assert softmax_group(out, "cat") not in text  # answers as the reference does: nothing to comment on
    assert comments.read(out) == {}  # all commented out
    (out / "comments.toml").unlink()


def test_the_report_lists_the_group_with_its_comment(graded):
    subs, out = graded
    key = softmax_group(out, "ann")
    (out / "comments.toml").write_text(f"[{key}]\ntext = 'Look at what np.exp does to 1000.'\n")
    try:
        assert main(["report", str(out)]) == 0
    finally:
        (out / "comments.toml").unlink()
    page = (out / "report.html").read_text()
    section = page[page.index("<h2 id=groups>"):page.index("<h2>Students</h2>")]
    row = section[section.index(f"<code>{key}</code>"):]
    row = row[:row.index("</tr>")]
    assert "ann, bob" in row and "Look at what np.exp does to 1000." in row and "softmax(" in row
    assert softmax_group(out, "cat") not in section  # answers as the reference does: no row


def test_a_comment_reaches_every_member_survives_a_regrade_and_leaves_one_who_fixed_it(graded, capsys):
    subs, out = graded
    key = softmax_group(out, "ann")
    book = (out / "gradebook.csv").read_text()
    (out / "comments.toml").write_text(f"[{key}]\ntext = '''Subtract each row's maximum first.'''\n")
    assert main(["comment", str(out)]) == 0
    assert f"comment {key}: in the feedback of 2 student(s)" in capsys.readouterr().out
    for student in ("ann", "bob"):
        notes = [t for t in results(out, student)["tests"] if t["extra_data"].get("comment") == key]
        assert [(n["output"], n["score"], n["max_score"]) for n in notes] == \
               [("Subtract each row's maximum first.", 0.0, 0.0)]
    for student in ("cat", "dan"):
        assert not any("comment" in t["extra_data"] for t in results(out, student)["tests"])
    assert (out / "gradebook.csv").read_text() == book  # a comment changes no score
    assert main(["comment", str(out)]) == 0  # again: still one comment each
    assert sum("comment" in t["extra_data"] for t in results(out, "ann")["tests"]) == 1

    # bob edits his file without changing what it does; ann fixes her mistake
    (subs / "bob" / "softmax.py").write_text((subs / "bob" / "softmax.py").read_text() + "\n# checked again\n")
    shutil.copyfile(ROOT / "solutions" / "softmax.py", subs / "ann" / "softmax.py")
    capsys.readouterr()
    assert main(["grade", str(subs), "--out", str(out), "--jobs", "1", "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert f"comment {key}: dropped from ann's feedback (their softmax answers differently now)" in said
    assert [t["output"] for t in results(out, "bob")["tests"] if "comment" in t["extra_data"]] == \
           ["Subtract each row's maximum first."]
    assert not any("comment" in t["extra_data"] for t in results(out, "ann")["tests"])
    assert json.loads((out / comments.LEDGER).read_text())["reached"] == {key: ["bob"]}




@pytest.mark.parametrize("text, why", [
    ("[softmax.abc]\ntext = 'x'\n", "16 hexadecimal digits"),
    ("[softmx.0123456789abcdef]\ntext = 'x'\n", "no exercise is called softmx"),
    ("[softmax.0123456789abcdef]\nwords = 'x'\n", "needs a line text ="),
    ("[softmax.0123456789abcdef\n", "could not be read"),
])
def test_a_comments_file_that_cannot_be_used_is_named_with_its_cause(tmp_path, text, why):
    (tmp_path / comments.FILE).write_text(text)
    with pytest.raises(comments.CommentError, match=why):
        comments.read(tmp_path)


def test_a_comment_reaches_the_autograded_notebooks_of_an_nbgrader_course(tmp_path, capsys):
    """Written after the grading, it reaches the notebooks at the next grade, though nothing is graded again."""
    pytest.importorskip("nbgrader")
    from support import nbclass

    course = nbclass.make_course(tmp_path / "course")
    for student in ("ann", "bob"):
        nbclass.submit(course, student, {"softmax": MUTANT.read_text()})
    argv = ["grade", str(course / "submitted"), "--out", str(tmp_path / "out"), "--nbgrader-course", str(course),
            "--assignment", "part3_attention", "--no-progress", "--jobs", "2"]
    assert main(argv) == 0
    key = softmax_group(tmp_path / "out", "ann")
    (tmp_path / "out" / comments.FILE).write_text(f"[{key}]\ntext = 'Where does np.exp(1000) go?'\n")
    assert main(["comment", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    from graders.classroom.nbgrader import nbgradebook

    real = nbgradebook._autograde

    def bobs_fails(config, submitted, out, student, assignment, per):  # nbgrader could not write bob's
        found, wrote = real(config, submitted, out, student, assignment, per)
        return found, wrote and student != "bob"

    nbgradebook._autograde = bobs_fails
    try:
        assert main(argv) == 0
    finally:
        nbgradebook._autograde = real
    assert json.loads((tmp_path / "out" / comments.LEDGER).read_text())["pending"] == ["bob"]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert "2 student(s) already graded" in said and "1 submission(s) autograded from our results" in said
    for student in ("ann", "bob"):
        nb = json.loads((course / "autograded" / student / "part3_attention" / "softmax.ipynb").read_text())
        shown = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
        assert "a comment from your instructor" in shown and "Where does np.exp(1000) go?" in shown
    assert json.loads((tmp_path / "out" / comments.LEDGER).read_text())["pending"] == []


def test_a_report_of_results_written_before_behaviour_was_kept_says_to_grade_again(tmp_path):
    from graders.outfolder.outfiles import gradebook_text, results_path, write_atomic

    test = {"name": "softmax: rows add up to 1", "exercise": "softmax", "score": 1.0, "max_score": 1.0,
            "status": "passed", "output": "", "visibility": "visible", "extra_data": {"outcome": "passed"}}
    write_atomic(results_path(tmp_path, "old"), json.dumps({"tests": [test], "extra_data": {"digest": "x"}}))
    write_atomic(tmp_path / "gradebook.csv", gradebook_text(tmp_path, ["old"], ["softmax"]))
    section = groups.section(analysis.load(tmp_path), {})
    assert "grade the class again to see the groups" in section and "<table" not in section


def test_what_a_call_left_in_its_arguments_is_part_of_the_answer():
    a = np.array([[1.0, 2.0]])

    def full(after):
        return {"ok": True, "value": worker.encode(a), "after": {"args": [worker.encode(after)], "kwargs": {}}}

    assert token_of(full(a)) == token_of(full(a.copy())) != token_of(full(a * 0))  # the input changed in place
    assert token_of(full(a)) not in ("unreadable", token_of(answer(a)))


def test_comments_leave_a_results_file_they_cannot_read_as_it_was_and_say_so(tmp_path, capsys):
    from graders.outfolder.outfiles import results_path, write_atomic

    key = "softmax.0123456789abcdef"
    write_atomic(tmp_path / comments.FILE, f"[{key}]\ntext = 'x'\n")
    write_atomic(tmp_path / comments.LEDGER, json.dumps({"reached": {key: ["gone", "odd"]}, "pending": 3}))
    write_atomic(results_path(tmp_path, "odd"), "[1, 2]")  # JSON, but no results.json of ours
    comments.apply(tmp_path)
    said = capsys.readouterr().out
    assert "odd/results.json could not be read" in said and "dropped from odd" not in said
    assert f"comment {key}: dropped from gone's feedback (they have no results in OUT any more)" in said
    assert json.loads((tmp_path / comments.LEDGER).read_text()) == {"reached": {key: ["odd"]}, "pending": []}


def test_comment_and_grade_refuse_an_out_that_another_command_is_writing(graded, tmp_path, capsys):
    from graders.outfolder.outfiles import writing

    subs, graded_out = graded
    out = tmp_path / "out"
    shutil.copytree(graded_out, out)
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    with writing(out, "attn-grade grade"):  # a grade is writing OUT
        capsys.readouterr()
        assert main(["comment", str(out)]) == 2
        said = capsys.readouterr().err
        assert f"{out} is being written by attn-grade grade (process " in said and "when it has finished" in said
        assert main(["grade", str(subs), "--out", str(out), "--jobs", "1", "--no-progress"]) == 2
        assert "is being written by attn-grade grade" in capsys.readouterr().err
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before  # nothing written meanwhile
    assert main(["comment", str(out)]) == 0  # once it has finished
    assert (out / comments.FILE).is_file()


def test_the_lock_on_out_ends_with_its_command_not_with_the_processes_it_forked(tmp_path):
    """A grade forks job processes while it holds OUT; killed, it must not leave OUT locked for as long
    as one of them takes to die (CI saw a resumed grade refused so)."""
    import signal

    from graders.outfolder.outfiles import Busy, writing

    ready, said = os.pipe()
    with writing(tmp_path, "attn-grade grade"):
        child = os.fork()
        if child == 0:  # a job process that outlives the block, as one being killed may for a moment
            os.write(said, b"forked")
            time.sleep(60)
            os._exit(0)
        assert os.read(ready, 6) == b"forked"
    os.close(ready), os.close(said)
    try:
        with writing(tmp_path, "attn-grade comment"):
            pass
    except Busy as exc:
        pytest.fail(f"OUT stayed locked by a forked process: {exc}")
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
