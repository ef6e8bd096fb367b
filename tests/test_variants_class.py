"""Variants in a class, a learner's folder and a notebook (kit/variants.py): a class graded with
--variants (each on their own numbers, a copied answer flagged with the classmate's name, a regrade
the same), a learner's id (attn-grade variant), the notebook's id cell and numbers, and results
files that say something odd about variants."""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_variants import ROOT, hs, solution_for, variants  # noqa: E402


# ------------------------------------------------------------------ a class graded with variants
@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """ann and eve answer for their own variants, bob hands in ann's answers, dan the exercise text's,
    cat the stub; graded with --variants."""
    from graders.cli import main

    root = tmp_path_factory.mktemp("variants")
    own = {"ann": solution_for(variants.of("part1_scores", "ann")),
           "eve": solution_for(variants.of("part1_scores", "eve")).replace("d_k = 2", "d_k = 2  # two coordinates"),
           "dan": solution_for(0), "cat": (ROOT / "exercises" / "hand_scores.py").read_text()}
    own["bob"] = re.sub(r"\batt\b", "weights", own["ann"])  # ann's answers, a name changed
    assert own["bob"] != own["ann"]
    for student, text in own.items():
        (root / "class" / student).mkdir(parents=True)
        (root / "class" / student / "hand_scores.py").write_text(text)
    out = root / "out"
    args = ["grade", str(root / "class"), "--out", str(out), "--jobs", "2", "--no-progress", "--variants",
            "--assignment", "part1_scores"]
    assert main(args) == 0
    first = {s: (out / "students" / s / "results.json").read_text() for s in own}
    assert main(args + ["--force"]) == 0
    return out, first


def results(out: Path, student: str) -> dict:
    import json

    return json.loads((out / "students" / student / "results.json").read_text())


def test_each_student_is_graded_on_their_own_numbers(klass):
    out, _ = klass
    scores = {s: results(out, s)["score"] for s in ("ann", "eve", "bob", "dan", "cat")}
    assert scores["ann"] == scores["eve"] == 8 and scores["cat"] == 0
    assert scores["bob"] < 4 and scores["dan"] < 4
    assert results(out, "ann")["extra_data"]["variants"] == {"hand_scores": variants.of("part1_scores", "ann")}


def test_an_answer_for_a_classmates_variant_is_flagged_with_that_classmates_name(klass):
    import json

    out, _ = klass
    flags = [f for f in json.loads((out / "integrity.json").read_text()) if f["kind"] == "another student's variant"]
    assert [(f["student"], f["where"]) for f in flags] == [("bob", "hand_scores.py")], flags
    assert "the variant of ann" in flags[0]["detail"]
    dan = " ".join(t["output"] for t in results(out, "dan")["tests"])
    assert "the numbers in the exercise's text" in dan


def test_grading_only_the_copier_still_names_whose_variant_it_is(klass, tmp_path):
    import json

    from graders.cli import main

    out, _ = klass
    alone = tmp_path / "bob-only"
    assert main(["grade", str(out.parent / "class"), "--out", str(alone), "--jobs", "1", "--no-progress",
                 "--variants", "--assignment", "part1_scores", "--student", "bob"]) == 0
    [flag] = [f for f in json.loads((alone / "integrity.json").read_text()) if f["kind"] == "another student's variant"]
    assert flag["student"] == "bob" and "the variant of ann" in flag["detail"], flag


def test_regrading_a_class_with_variants_gives_the_same_results(klass):
    import json

    out, first = klass
    for student, text in first.items():
        before, after = json.loads(text), results(out, student)
        strip = [(t["name"], t["score"], t.get("output")) for t in before["tests"]]
        assert strip == [(t["name"], t["score"], t.get("output")) for t in after["tests"]], student
        assert before["extra_data"]["digest"] == after["extra_data"]["digest"]


def test_the_learner_sets_an_id_and_is_checked_on_that_students_numbers(tmp_path, monkeypatch, capsys):
    from graders.cli import main

    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "hand_scores.py").write_text(solution_for(variants.of("part1_scores", "ann")))
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 1  # the exercise text's numbers: wrong
    assert main(["variant", "--id", "ann", "--dir", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert f"variant {variants.of('part1_scores', 'ann')} of part1_scores, for student ann" in shown
    assert f"q = {hs.numbers(variants.of('part1_scores', 'ann')).q}" in shown
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 0
    assert "graded on your own numbers" in capsys.readouterr().out
    assert main(["variant", "--clear", "--dir", str(folder)]) == 0
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 1


def test_a_result_kept_at_full_marks_before_the_id_was_set_is_not_shown_after(tmp_path, monkeypatch, capsys):
    """The seed's answers at full marks are kept (cli/fullmarks.py); once an id gives other numbers, check
    grades them again on those, and says so, instead of showing the kept 8/8."""
    from graders.cli import main

    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "hand_scores.py").write_text(solution_for(0))
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 0
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 0
    assert "was not run again" in capsys.readouterr().out  # kept, as before
    assert main(["variant", "--id", "ann", "--dir", str(folder)]) == 0
    capsys.readouterr()
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 1
    said = capsys.readouterr().out
    assert "graded on your own numbers" in said and "was not run again" not in said
    assert main(["variant", "--clear", "--dir", str(folder)]) == 0
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 0


def test_list_says_whose_numbers_and_which_results_were_on_other_numbers(tmp_path, monkeypatch, capsys):
    from graders.cli import main

    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "hand_scores.py").write_text(solution_for(0))
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "cache"))
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 0  # 8/8 on the text's numbers
    capsys.readouterr()
    assert main(["list", "--dir", str(folder), "--color", "never"]) == 0
    before = capsys.readouterr().out
    assert "other numbers" not in before and "Your own numbers" not in before
    assert main(["variant", "--id", "ann", "--dir", str(folder)]) == 0
    capsys.readouterr()
    assert main(["list", "--dir", str(folder), "--color", "never"]) == 0
    after = capsys.readouterr().out
    lines = after.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.lstrip().startswith("1. ")]
    assert "8/8" in lines[at] and "(on other numbers: check again)" in " ".join(lines[at:at + 2])
    assert "next: hand_scores" in after, "8/8 on other numbers is not done"
    assert "Your own numbers, as student ann" in after
    assert main(["check", "hand_scores", "--dir", str(folder)]) == 1  # now on ann's
    capsys.readouterr()
    assert main(["list", "--dir", str(folder), "--color", "never"]) == 0
    assert "other numbers" not in capsys.readouterr().out


# ------------------------------------------------------------------ in a notebook
@pytest.fixture()
def kernel_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    return tmp_path


def kernel(text: str, **names) -> dict:
    namespace = {"__name__": "__main__", **names}
    exec(compile(text, "/tmp/ipykernel_variants/cell0.py", "exec"), namespace)
    return namespace


def test_a_notebook_shows_the_students_numbers_and_its_checks_use_them(kernel_folder, monkeypatch, capsys):
    from graders.grading import notebook

    ann = variants.of("part1_scores", "ann")
    monkeypatch.setattr(notebook, "course_varies", lambda: True)
    answers = kernel(solution_for(ann), STUDENT_ID="ann")
    notebook.your_numbers("hand_scores", answers)
    assert f"Your numbers (ann, variant {ann}): {hs.numbers(ann).text()}" in " ".join(capsys.readouterr().out.split())
    assert notebook.public_checks("hand_scores", answers) == 3
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")  # on the course's JupyterHub, the id may stay empty
    assert notebook.public_checks("hand_scores", kernel(solution_for(ann), STUDENT_ID="")) == 3
    monkeypatch.delenv("JUPYTERHUB_USER")
    capsys.readouterr()
    assert notebook.public_checks("hand_scores", kernel(solution_for(ann), STUDENT_ID="")) < 3
    assert "type your student id in the STUDENT_ID cell" in " ".join(capsys.readouterr().out.split())


def test_a_notebook_of_a_course_without_variants_keeps_the_texts_numbers(kernel_folder, monkeypatch, capsys):
    from graders.grading import notebook

    monkeypatch.setattr(notebook, "course_varies", lambda: False)
    notebook.your_numbers("hand_scores", {"STUDENT_ID": "ann"})
    assert "everyone works from the numbers in the text" in capsys.readouterr().out
    assert notebook.public_checks("hand_scores", kernel(solution_for(0), STUDENT_ID="ann")) == 3


def test_the_course_build_reads_the_courses_choice(tmp_path):
    pytest.importorskip("traitlets")
    from graders.classroom.authoring.course import course_varies

    assert not course_varies(tmp_path)
    (tmp_path / "nbgrader_config_local.py").write_text("c = get_config()\n# c.AttnGrade.variants = True\n")
    assert not course_varies(tmp_path)
    (tmp_path / "nbgrader_config_local.py").write_text("c = get_config()\nc.AttnGrade.variants = True\n")
    assert course_varies(tmp_path)


def test_a_notebook_whose_id_names_another_student_is_flagged(tmp_path):
    import json

    from graders.classroom.authoring import course
    from graders.classroom.integrity import integrity

    built = json.loads(course.notebook("hand_scores"))
    gids = [c["metadata"].get("nbgrader", {}).get("grade_id") for c in built["cells"]]
    assert "hand_scores-numbers" in gids
    nfd = unicodedata.normalize("NFD", "zoë")  # a folder named with a decomposed ë; she types the usual one
    for student, typed in (("fay", "eli"), ("eli", "eli"), ("gus", ""), ("Hal", "hal "), (nfd, "zoë")):
        nb = json.loads(json.dumps(built))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and integrity.typed_id("".join(cell["source"])) is not None:
                cell["source"] = f'STUDENT_ID = "{typed}"'
        where = tmp_path / "submitted" / student / "part1_scores"
        where.mkdir(parents=True)
        (where / "hand_scores.ipynb").write_text(json.dumps(nb))
    flags = [f for f in integrity.scan(tmp_path / "submitted", "nbgrader", None, ["hand_scores"], variants=True)
             if f.kind != "identical answers"]  # all three hand in the reference
    assert [(f.student, f.kind) for f in flags] == [("fay", "id does not match its folder")], flags
    from graders.classroom.nbgrader.nbsubmit import id_note  # and the student is told, in their feedback

    said = {who: id_note("hand_scores", who, json.loads((tmp_path / "submitted" / who / "part1_scores" /
                                                          "hand_scores.ipynb").read_text()))
            for who in ("fay", "eli", "gus", "Hal", nfd)}
    assert [who for who, note in said.items() if note] == ["fay"] and "says 'eli'" in said["fay"]
    without = integrity.scan(tmp_path / "submitted", "nbgrader", None, ["hand_scores"])  # a course without variants
    assert [f.kind for f in without if f.kind != "identical answers"] == []
    assert "'eli'" in flags[0].detail


def test_a_class_graded_with_variants_is_not_regraded_without_them_by_accident(klass, tmp_path, capsys):
    import shutil

    from graders.cli import main

    out, _ = klass
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    subs = out.parent / "class"
    before = (copy / "gradebook.csv").read_text()
    args = ["grade", str(subs), "--out", str(copy), "--jobs", "2", "--no-progress", "--assignment", "part1_scores"]
    with pytest.raises(SystemExit):
        main(args)
    said = capsys.readouterr().err
    assert "holds results graded on each student's own numbers (--variants)" in said and "--force" in said
    assert (copy / "gradebook.csv").read_text() == before
    assert main(args + ["--variants"]) == 0  # as before: everyone kept
    assert "5 student(s) already graded" in capsys.readouterr().out


def test_the_same_answers_on_two_students_numbers_are_not_one_group(klass):
    """ann's answers are right for her variant; bob handed in the same answers, on his: the class report
    must not group them as one behaviour (one at full marks, one not), nor dan's text numbers as the reference's."""
    from graders.classroom.report import analysis, groups

    out, _ = klass
    sig = {s: results(out, s)["extra_data"]["behaviour"]["hand_scores"]["signature"] for s in ("ann", "bob")}
    assert sig["ann"] != sig["bob"]
    found = groups.of(analysis.load(out))["hand_scores"]
    lost = {m for g in found if g.answers_otherwise for m in g.members}
    assert lost == {"bob", "dan", "cat"} and not any({"ann", "bob"} <= set(g.members) for g in found)


@pytest.mark.parametrize("extra", ['"oops"', '{"variants": [1]}', '{"variants": {"hand_scores": "x"}}', "null"])
def test_show_reads_a_results_file_whose_variants_are_malformed(tmp_path, extra, capsys):
    from graders.cli import main

    path = tmp_path / "results.json"
    path.write_text('{"tests": [{"exercise": "hand_scores", "name": "x", "score": 0, "max_score": 1, '
                    f'"output": "hi"}}], "extra_data": {extra}}}')
    main(["show", str(path)])
    out = capsys.readouterr().out
    assert "hand_scores" in out and "variant" not in out


def test_the_class_report_shows_each_students_variant_and_their_feedback_says_it(klass):
    from graders.cli import main

    out, _ = klass
    assert main(["report", str(out)]) == 0
    page = (out / "report.html").read_text()
    students = page[page.index("<h2>Students</h2>"):page.index("<h2>Feedback</h2>")]
    assert f"graded on variant {variants.of('part1_scores', 'ann')}'>v{variants.of('part1_scores', 'ann')}<" in students
    feedback = page[page.index("<h2>Feedback</h2>"):]
    assert f"graded on your own numbers, variant {variants.of('part1_scores', 'bob')}" in feedback


def test_one_mistake_on_several_students_numbers_is_one_group_and_one_comment_reaches_them(tmp_path, capsys):
    """Forgetting √d_k gives other answers on each student's numbers: they are one group all the same,
    known by the mistake their feedback names, and a comment written for it reaches each of them."""
    import json

    from graders.classroom.report import analysis, groups
    from graders.cli import main

    unscaled = ["ann", "bob", "eve"]
    assert len({variants.of("part1_scores", s) for s in unscaled}) == 3
    for student in unscaled + ["fay"]:
        text = solution_for(variants.of("part1_scores", student))
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "hand_scores.py").write_text(
            text if student == "fay" else text.replace(" / sympy.sqrt(d_k)", ""))
    out = tmp_path / "out"
    args = ["grade", str(tmp_path / "class"), "--out", str(out), "--jobs", "2", "--no-progress", "--variants",
            "--assignment", "part1_scores"]
    assert main(args) == 0
    [group] = [g for g in groups.of(analysis.load(out))["hand_scores"] if len(g.members) > 1]
    assert sorted(group.members) == unscaled and "not divided by √d_k" in group.mistake
    (out / "comments.toml").write_text(f"[{group.key}]\ntext = 'Divide by sqrt(d_k).'\n")
    assert main(["comment", str(out)]) == 0
    for student in unscaled + ["fay"]:
        told = [t for t in results(out, student)["tests"] if t.get("output") == "Divide by sqrt(d_k)."]
        assert len(told) == (student != "fay"), student
    assert main(args + ["--force"]) == 0  # a regrade keeps the behaviour, and the comment
    assert [s for s in unscaled if any(t.get("output") == "Divide by sqrt(d_k)." for t in results(out, s)["tests"])] \
        == unscaled
    json.loads((out / "comments.json").read_text())  # the ledger stays readable
