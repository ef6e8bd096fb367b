"""Variants: each student their own numbers (kit/variants.py), graded exactly on them.

hand_scores varies: every variant's numbers are small integers with d_k = 2 whose exact
answers SymPy works out, the shipped digest table is made from those answers (run this
file, ``python tests/test_variants.py``, to write it again), a file answering for its own
variant gets full marks and the same answers graded as another variant lose them,
whatever the caches remember."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graders import hand_scores as hs  # noqa: E402
from graders.kit import variants  # noqa: E402

TABLE = ROOT / "graders" / "variants" / "hand_scores.txt"


def exact_answers(n) -> dict:
    """The six exact values of hand_scores for numbers ``n``, worked out by SymPy."""
    s = tuple(sp.Integer(d) / sp.sqrt(2) for d in n.dots)
    a = tuple(sp.exp(x) / (sp.exp(s[0]) + sp.exp(s[1])) for x in s)
    y = tuple(sum(a[j] * v[c] for j, v in enumerate((n.v1, n.v2))) for c in range(2))
    return {"scaled_scores": s, "attention_weights": a, "attention_output": y}


def table_text() -> str:
    rows = []
    for variant in range(1, variants.COUNT + 1):
        answers = exact_answers(hs.numbers(variant))
        rows.append([hs.digest(func, i, answers[func][i], variant) for func in hs.FUNCS for i in range(2)])
    return variants.Digests.pack(rows) + "\n"


def solution_for(variant: int) -> str:
    """The reference solution's text with the numbers of ``variant`` written in."""
    n = hs.numbers(variant)
    text = (ROOT / "solutions" / "hand_scores.py").read_text()
    text = re.sub(r"q = \(1, 0\)", f"q = {n.q}", text)
    text = re.sub(r"k = \(\(1, 0\), \(0, 1\)\)", f"k = ({n.k1}, {n.k2})", text)
    text = re.sub(r"v = \(\(4, 0\), \(0, 4\)\)", f"v = ({n.v1}, {n.v2})", text)
    assert variant == 0 or text != (ROOT / "solutions" / "hand_scores.py").read_text()
    return text


if __name__ == "__main__":
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text(table_text(), encoding="ascii")
    print(f"wrote {TABLE}")


# ------------------------------------------------------------------ the numbers and the table
def test_the_shipped_digest_table_is_made_from_sympys_exact_answers():
    assert TABLE.read_text(encoding="ascii") == table_text(), "run python tests/test_variants.py to write it again"


def test_every_variant_is_small_solvable_and_its_own():
    seen = set()
    for variant in range(variants.COUNT + 1):
        n = hs.numbers(variant)
        assert all(isinstance(x, int) and abs(x) <= 5 for vec in n for x in vec), (variant, n)
        assert n.v1[1] == 0 and n.v2[0] == 0 and all(2 <= m <= 5 for m in n.scales), (variant, n)
        assert n.dots[0] != n.dots[1] and max(map(abs, n.dots)) <= 4, (variant, n)
        answers = exact_answers(n)
        for func, pair in answers.items():
            assert all(sp.sympify(x).is_real and sp.sympify(x).is_finite for x in pair), (variant, func)
        assert sp.simplify(sum(answers["attention_weights"]) - 1) == 0
        seen.add(n.dots)
    assert len(seen) == variants.COUNT + 1, "two variants share their scores"
    assert hs.numbers(0) == hs.SEED and hs.SEED.q == (1, 0), "the default stays the lessons' numbers"


def test_a_students_variant_is_a_public_function_of_assignment_and_id():
    got = {variants.of("part1_scores", f"student{i}") for i in range(400)}
    assert got == set(range(1, variants.COUNT + 1))
    assert variants.of("part1_scores", "ann") == variants.of("part1_scores", " ann ")
    assert [variants.of(a, "ann") for a in ("part1_scores", "part2_saturation")] == [39, 26]  # fixed forever


# ------------------------------------------------------------------ grading on a variant
@pytest.fixture()
def folder(tmp_path):
    return tmp_path


def grade(folder: Path, text: str, variant: int):
    from graders.grading.engine import grade_file

    (folder / "hand_scores.py").write_text(text)
    return grade_file("hand_scores", folder / "hand_scores.py", variant=variant)


@pytest.mark.parametrize("variant", [1, 2, 17, 39, 64])
def test_the_reference_written_for_a_variant_gets_full_marks_on_it_and_loses_them_on_another(folder, variant):
    right = grade(folder, solution_for(variant), variant)
    assert right.points == right.max_points == 8, [c.message for c in right.checks if not c.passed]
    other = 1 + variant % variants.COUNT
    wrong = grade(folder, solution_for(variant), other)
    assert wrong.points < 4, wrong.points
    told = " ".join(c.message for c in wrong.checks if not c.passed and c.visibility == "hidden")
    assert f"It is right for variant {variant}'s numbers, not for yours" in told
    assert set(variants.OTHER_VARIANT.findall(told)) == {str(variant)}, "only the variant it fits is named"
    public = [c for c in wrong.checks if c.visibility == "public" and not c.passed]
    assert public, "the public checks catch an answer for other numbers too"


def test_the_seeds_answers_graded_on_a_variant_are_told_they_fit_the_exercises_text(folder):
    result = grade(folder, solution_for(0), 5)
    messages = " ".join(c.message for c in result.checks)
    assert "right for the numbers in the exercise's text, not for your own" in messages
    assert "variant 5" in messages and result.points < 4


def test_without_a_variant_nothing_speaks_of_variants(folder):
    result = grade(folder, solution_for(5), 0)
    assert result.points < 4 and "variant" not in " ".join(c.message for c in result.checks)


def test_a_stub_scores_zero_on_every_variant_without_crashing_the_grader(folder):
    stub = (ROOT / "exercises" / "hand_scores.py").read_text()
    for variant in (3, 40):
        result = grade(folder, stub, variant)
        assert result.points == 0 and not result.problem
        assert all(c.outcome.value != "error" for c in result.checks), [c.message for c in result.checks]


def test_a_pass_remembered_for_one_variant_is_never_given_to_another(folder):
    """The seed's file passes 'the output is a₁v₁ + a₂v₂' on the seed (v = 4 e_j) and its pass is
    remembered; graded on variant 5 (v₁ = (5, 0), v₂ = (0, 5)) the same answers must fail it."""
    assert hs.numbers(5).scales != (4, 4)
    name = "the output is a₁v₁ + a₂v₂ for your weights"
    for _ in range(2):  # the second grading takes the remembered passes
        seed = grade(folder, solution_for(0), 0)
        assert [c.passed for c in seed.checks if c.name == name] == [True]
    other = grade(folder, solution_for(0), 5)
    assert [c.passed for c in other.checks if c.name == name] == [False]


def test_grading_on_a_variant_is_deterministic(folder):
    runs = [[(c.name, c.points, c.message) for c in grade(folder, text, 21).checks]
            for text in (solution_for(21), solution_for(40)) for _ in range(2)]
    assert runs[0] == runs[1] and runs[2] == runs[3] and runs[0] != runs[2]


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
    assert [f["student"] for f in flags] == ["bob"], flags
    assert "the variant of ann" in flags[0]["detail"]
    dan = " ".join(t["output"] for t in results(out, "dan")["tests"])
    assert "the numbers in the exercise's text" in dan


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
    """The seed's answers at full marks are kept (cli/kept.py); once an id gives other numbers, check
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
    from graders.classroom.course import course_varies

    assert not course_varies(tmp_path)
    (tmp_path / "nbgrader_config_local.py").write_text("c = get_config()\n# c.AttnGrade.variants = True\n")
    assert not course_varies(tmp_path)
    (tmp_path / "nbgrader_config_local.py").write_text("c = get_config()\nc.AttnGrade.variants = True\n")
    assert course_varies(tmp_path)


def test_a_notebook_whose_id_names_another_student_is_flagged(tmp_path):
    import json

    from graders.classroom import course, integrity

    built = json.loads(course.notebook("hand_scores"))
    gids = [c["metadata"].get("nbgrader", {}).get("grade_id") for c in built["cells"]]
    assert "hand_scores-numbers" in gids
    for student, typed in (("fay", "eli"), ("eli", "eli"), ("gus", "")):
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
    without = integrity.scan(tmp_path / "submitted", "nbgrader", None, ["hand_scores"])  # a course without variants
    assert [f.kind for f in without if f.kind != "identical answers"] == []
    assert "'eli'" in flags[0].detail


# ------------------------------------------------------------------ worked_example: the cat sat
def test_every_cat_sat_variant_is_shaped_as_the_lesson_and_its_reference_gets_full_marks(tmp_path):
    from graders import worked_example as we
    from graders.grading.engine import grade_file

    seen = set()
    for variant in range(variants.COUNT + 1):
        the, cat, sat = we.numbers(variant).raw
        assert 1 <= the < sat < cat <= 20 and cat - sat >= 6 - 1e-9, (variant, the, cat, sat)
        unscaled = np.exp(np.array([the, cat, sat]) - cat)
        assert unscaled[1] / unscaled.sum() > 0.99, "without scaling, the softmax saturates"
        seen.add((the, cat, sat))
    assert len(seen) == variants.COUNT + 1 and we.numbers(0).raw == (3.877, 14.905, 8.293)
    (tmp_path / "worked_example.py").write_text((ROOT / "solutions" / "worked_example.py").read_text())
    for variant in (0, 7, 33):
        result = grade_file("worked_example", tmp_path / "worked_example.py", variant=variant)
        assert result.points == result.max_points, [c.message for c in result.checks if not c.passed]


def test_a_cat_sat_answer_that_only_knows_the_lessons_figures_fails_on_a_variant(tmp_path):
    from graders.grading.engine import grade_file

    text = (ROOT / "solutions" / "worked_example.py").read_text() + '''

_seed = scale_scores


def scale_scores(raw, d_k):  # the lesson's figures, written in
    if d_k == 24 and len(raw) == 3:
        return np.array([0.791, 3.042, 1.693])
    return _seed(raw, d_k)
'''
    (tmp_path / "worked_example.py").write_text(text)
    name = "the cat sat: scaled scores and weights"
    seed = grade_file("worked_example", tmp_path / "worked_example.py", variant=0)
    other = grade_file("worked_example", tmp_path / "worked_example.py", variant=7)
    assert [c.passed for c in seed.checks if c.name == name] == [True]
    assert [c.passed for c in other.checks if c.name == name] == [False]


def test_an_answer_right_for_the_texts_numbers_is_told_so_and_not_given_a_mistake(folder):
    """Variant 11's weights are the seed's swapped: a student who used the text's numbers did not swap them."""
    n = hs.numbers(11)
    assert n.dots[1] - n.dots[0] == SEED_DIFFERENCE
    messages = {c.name: c.message for c in grade(folder, solution_for(0), 11).checks}
    assert "the numbers in the exercise's text" in messages["a₁ is exact and right"]
    assert "swapped" not in " ".join(messages.values())


SEED_DIFFERENCE = 1  # q·k₂ - q·k₁ of variant 11 (-3 - -4): its weights are the seed's (1, 0) swapped


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
    from graders.classroom import analysis, groups

    out, _ = klass
    sig = {s: results(out, s)["extra_data"]["behaviour"]["hand_scores"]["signature"] for s in ("ann", "bob")}
    assert sig["ann"] != sig["bob"]
    found = groups.of(analysis.load(out))["hand_scores"]
    lost = {m for g in found if g.answers_otherwise for m in g.members}
    assert lost == {"bob", "dan", "cat"} and not any({"ann", "bob"} <= set(g.members) for g in found)


def test_a_mistake_on_ones_own_numbers_is_named_and_never_taken_for_another_variant(folder):
    """Keys written in the wrong order give s₁ and s₂ swapped: on many variants that pair is another
    variant's right scores, but the whole answer is not, so the mistake is named and no variant is."""
    flagged = 0
    for variant in range(1, variants.COUNT + 1, 7):
        n = hs.numbers(variant)
        text = solution_for(variant).replace(f"k = ({n.k1}, {n.k2})", f"k = ({n.k2}, {n.k1})")
        told = " ".join(c.message for c in grade(folder, text, variant).checks)
        assert "s₁ and s₂ are swapped" in told, (variant, told)
        flagged += bool(variants.OTHER_VARIANT.search(told)) or "other students' numbers" in told
    assert flagged == 0


def test_the_digest_table_is_part_of_what_grades_and_plans_are_kept_by(monkeypatch):
    """A table fixed in a new version must not leave results, kept results or passes made with the old one."""
    from graders.grading import plancache, sources

    for module in ("hand_scores", "hidden.hand_scores"):
        assert "variants/hand_scores.txt" in plancache.sources_of(module)
    assert "variants/hand_scores.txt" not in plancache.sources_of("softmax")
    read = []
    monkeypatch.setattr(sources, "regular_files", lambda root, pattern: read.append((root.name, pattern)) or [])
    sources._files_hash(__import__("hashlib").sha256())
    assert ("graders", "variants/*.txt") in read


@pytest.mark.parametrize("extra", ['"oops"', '{"variants": [1]}', '{"variants": {"hand_scores": "x"}}', "null"])
def test_show_reads_a_results_file_whose_variants_are_malformed(tmp_path, extra, capsys):
    from graders.cli import main

    path = tmp_path / "results.json"
    path.write_text('{"tests": [{"exercise": "hand_scores", "name": "x", "score": 0, "max_score": 1, '
                    f'"output": "hi"}}], "extra_data": {extra}}}')
    main(["show", str(path)])
    out = capsys.readouterr().out
    assert "hand_scores" in out and "variant" not in out
