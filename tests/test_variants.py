"""Variants: each student their own numbers (kit/variants.py), graded exactly on them.

hand_scores' variants are small integers with d_k = 2 whose exact answers SymPy works out, and
the shipped digest table is made from those answers (run this file, ``python
tests/test_variants.py``, to write it again); worked_example's are "cat sat" scores shaped as the
lesson's. A file answering for its own variant gets full marks, the same answers graded as
another variant lose them whatever the caches remember, and feedback names a mistake made on the
student's own numbers, never another variant. tests/test_variants_class.py grades classes."""

from __future__ import annotations

import re
import sys
import unicodedata
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
    assert variants.of("part1_scores", "ann") == variants.of("part1_scores", " ann ") == variants.of("part1_scores", "Ann")
    nfc, nfd = (unicodedata.normalize(form, "zoë") for form in ("NFC", "NFD"))
    assert nfc != nfd and variants.of("part1_scores", nfc) == variants.of("part1_scores", nfd)
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


def test_a_mistake_that_gives_another_variants_whole_answer_is_named_as_the_mistake(folder):
    """Some variants' keys are another's swapped (with the same values): keys written in the wrong order
    then give that variant's whole answer. The student's own numbers explain it, so the mistake is named
    and no classmate's variant is (a try-out saw variant 35's swap taken for variant 7's numbers)."""
    twins = []
    for variant in range(1, variants.COUNT + 1):
        n = hs.numbers(variant)
        swapped = exact_answers(n._replace(k1=n.k2, k2=n.k1))
        twins += [(variant, other) for other in range(variants.COUNT + 1) if other != variant and all(
            hs.digest(f, i, swapped[f][i], other) == hs.expected_digest(f, i, other) for f in hs.FUNCS for i in (0, 1))]
    assert twins, "no variant's swapped keys give another's answer: this test would test nothing"
    for variant, other in twins[:4]:
        n = hs.numbers(variant)
        text = solution_for(variant).replace(f"k = ({n.k1}, {n.k2})", f"k = ({n.k2}, {n.k1})")
        assert grade(folder, text, other).points == 8, "it is that variant's whole answer"
        told = " ".join(c.message for c in grade(folder, text, variant).checks)
        assert "s₁ and s₂ are swapped" in told, (variant, told)
        assert not variants.OTHER_VARIANT.search(told) and "other students' numbers" not in told, (variant, told)


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
