"""Flags a person can act on (issue 37): what an instructor grading a class saw, and should not have.

1. Right answers that the exercise forces (variance_proof's four exact constants, written into the stub)
   were flagged as identical answers; an unusual wrong answer shared, and a long implementation handed
   in twice, still are.
2. Untouched stubs were flagged as identical in nbgrader's layout graded without --nbgrader-course: a
   stub is never a flag, in any layout.
3. The evidence of similar code marked spans from the middle of a token ("nu[mpy as np]").
4. One student's one mistake, named in other words by several checks of one exercise, was several rows
   of the known mistakes.
"""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.report import analysis
from graders.classroom.integrity import codematch, copying, integrity
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent
STUB = (ROOT / "exercises" / "variance_proof.py").read_text(encoding="utf-8")
PART1 = ("variance_proof", "hand_scores")


def written(stub: str, **bodies: str) -> str:
    """The stub with each named function's ``raise NotImplementedError(...)`` replaced by ``bodies[name]``."""
    for name, body in bodies.items():
        stub, n = re.subn(rf'raise NotImplementedError\("{name} is not written yet"\)', body, stub)
        assert n == 1, name
    return stub


# What every student who gets variance_proof right and writes the least may hand in: the exercise leaves
# no freedom but the spelling of four exact values.
FORCED = written(STUB, product_mean="return 0", product_variance="return 1", dot_variance="return d_k",
                 scaled_dot_variance="return 1")
# A wrong answer no lesson names: the variance of each term taken as 2.
ODD = written(STUB, product_mean="return 0", product_variance="return 2", dot_variance="return 2 * d_k",
              scaled_dot_variance="return 2")
LONG = (ROOT / "tests" / "alternatives" / "variance_proof" / "moments.py").read_text(encoding="utf-8")


def identical(flags) -> dict:
    """student -> the detail of their identical-answers flag."""
    return {f["student"]: f["detail"] for f in flags if f["kind"] == "identical answers"}


def grade(subs: Path, out: Path, *more: str) -> list:
    assert main(["grade", str(subs), "--out", str(out), "--no-progress", "--jobs", "2", *more]) == 0
    return json.loads((out / "integrity.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ 1. forced right answers
def test_right_answers_the_exercise_forces_are_not_flagged_and_copies_are(tmp_path):
    files = {**{f"honest_{i}": FORCED for i in range(5)}, "odd_0": ODD, "odd_1": ODD, "long_0": LONG,
             "long_1": LONG}
    for who, text in files.items():
        (tmp_path / "class" / who).mkdir(parents=True)
        (tmp_path / "class" / who / "variance_proof.py").write_text(text, encoding="utf-8")
    flags = identical(grade(tmp_path / "class", tmp_path / "out", "--assignment", "part1_scores"))
    klass = analysis.load(tmp_path / "out")
    full = registry.get("variance_proof").points
    assert {s.name for s in klass.students if s.scores["variance_proof"] == full} \
        == {*(f"honest_{i}" for i in range(5)), "long_0", "long_1"}  # right, as the premise says
    assert not [who for who in flags if who.startswith("honest")], flags
    assert "odd_1" in flags["odd_0"] and "odd_0" in flags["odd_1"], flags  # short, but the same wrong values
    assert "long_1" in flags["long_0"] and "long_0" in flags["long_1"], flags  # right, but long: not forced
    assert set(flags) == {"odd_0", "odd_1", "long_0", "long_1"}


# ------------------------------------------------------------------ 2. untouched stubs, in every layout
def released(slug: str) -> dict:
    """The released notebook of ``slug``, as nbgrader makes it from the course's source (solutions cleared)."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbgrader")
    from nbgrader.preprocessors import ClearSolutions
    from traitlets.config import Config

    config = Config()
    config.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
    source = ROOT / "course" / "source" / registry.get(slug).assignment / f"{slug}.ipynb"
    nb, _ = ClearSolutions(config=config).preprocess(nbformat.read(source, as_version=4), {"language": "python"})
    return json.loads(nbformat.writes(nb))


def answer_cell(nb: dict, slug: str) -> dict:
    return next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == f"{slug}-answer")


@pytest.mark.parametrize("layout", ["py", "nbgrader", "nbgrader, release known"])
def test_untouched_stubs_are_never_identical_answers(tmp_path, layout):
    """Two students hand in both stubs untouched, a third the reference; in nbgrader's layout graded without
    --nbgrader-course the scan knew only the .py stub, and the released cells were flagged as identical."""
    subs, out = tmp_path / "submitted", tmp_path / "out"
    for who in ("idle_0", "idle_1", "done"):
        for slug in PART1:
            solution = (ROOT / "solutions" / f"{slug}.py").read_text(encoding="utf-8")
            if layout == "py":
                (subs / who).mkdir(parents=True, exist_ok=True)
                text = solution if who == "done" else (ROOT / "exercises" / f"{slug}.py").read_text(encoding="utf-8")
                (subs / who / f"{slug}.py").write_text(text, encoding="utf-8")
                continue
            nb = released(slug)
            if who == "done":
                answer_cell(nb, slug)["source"] = solution
            (subs / who / "part1_scores").mkdir(parents=True, exist_ok=True)
            (subs / who / "part1_scores" / f"{slug}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
            if layout == "nbgrader, release known" and who == "done":
                (tmp_path / "release" / "part1_scores").mkdir(parents=True, exist_ok=True)
                (tmp_path / "release" / "part1_scores" / f"{slug}.ipynb").write_text(json.dumps(released(slug)))
    flags = grade(subs, out)
    if layout == "nbgrader, release known":  # as attn-grade grade --nbgrader-course scans, the release known
        codes, kind = {}, "nbgrader"
        found = integrity.scan(subs, kind, tmp_path / "release", PART1, codes=codes)
        found += copying.find(out, codes, PART1, tmp_path / "release", kind)
        flags = [f.__dict__ for f in found]
    assert not identical(flags), identical(flags)
    assert not [f for f in flags if f["student"].startswith("idle")], flags  # nor any other flag
    scores = {s.name: s.total for s in analysis.load(out).students}
    assert scores["idle_0"] == scores["idle_1"] == 0 < scores["done"]  # the stubs were read as stubs


# ------------------------------------------------------------------ 3. whole tokens marked
def token_edges(code: str) -> tuple[set, set]:
    """The offsets where Python tokens of ``code`` start, and where they end."""
    lines = code.splitlines(keepends=True)
    at = [0]
    for line in lines:
        at.append(at[-1] + len(line))
    starts, ends = set(), set()
    for t in tokenize.generate_tokens(io.StringIO(code).readline):
        if t.type in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        starts.add(at[t.start[0] - 1] + t.start[1])
        ends.add(at[t.end[0] - 1] + t.end[1])
    return starts, ends


def test_similar_code_is_marked_in_whole_tokens():
    """The demo's dan copied ben's answers under other names: every marked span starts where a token starts
    and ends where one ends, and the pieces still make up the whole file."""
    demo = ROOT / "demo" / "submissions"
    seen = 0
    for slug in ("attention", "worked_example", "softmax"):
        codes = {slug: {s.name: (f"{slug}.py", (s / f"{slug}.py").read_text(encoding="utf-8"))
                        for s in sorted(demo.iterdir()) if (s / f"{slug}.py").is_file()}}
        _, evidence = codematch.compare(codes, {slug: integrity.stub_texts(registry.get(slug), None)})
        for item in evidence:
            assert "skipped" not in item, item
            for who, pieces in zip(item["students"], item["code"]):
                code = codes[slug][who][1]
                assert "".join(text for text, _ in pieces) == code
                starts, ends = token_edges(code)
                at = 0
                for text, hit in pieces:
                    if hit:
                        seen += 1
                        assert at in starts and at + len(text) in ends, \
                            f"{who}'s {slug}: {code[max(at - 10, 0):at]!r}[{text[:30]!r}...{text[-20:]!r}]"
                    at += len(text)
    assert seen >= 4


# ------------------------------------------------------------------ 4. one mistake, one row
def test_one_mistake_named_by_several_checks_of_an_exercise_is_one_row(tmp_path):
    """ann forgot √d_k in hand_scores: the scores' checks and the weights' checks name it in two wordings;
    bob swapped the weights: the public and the hidden checks name it in two; cy left the scaling out of
    scaled_dot_variance. Each is one mistake of one student: one row each, of one student."""
    mutants = ROOT / "tests" / "mutants"
    files = {"ann": {"hand_scores": "no_scaling"}, "bob": {"hand_scores": "swapped_weights"},
             "cy": {"variance_proof": "not_scaled"}}
    for who, answers in files.items():
        (tmp_path / "class" / who).mkdir(parents=True)
        for slug, mutant in answers.items():
            text = (mutants / slug / f"{mutant}.py").read_text(encoding="utf-8")
            (tmp_path / "class" / who / f"{slug}.py").write_text(text, encoding="utf-8")
    grade(tmp_path / "class", tmp_path / "out", "--assignment", "part1_scores")
    klass = analysis.load(tmp_path / "out")
    named = {s.name: {analysis.hint_of(t["output"]) for t in s.tests} - {""} for s in klass.students}
    assert all(len(hints) >= 2 for hints in named.values()), named  # the premise: several wordings each
    rows = analysis.mistakes(klass)
    assert [k for _, k, _ in rows] == [1, 1, 1], rows
    for who, hints in named.items():  # each row is one of that student's own wordings
        assert len([h for h, _, _ in rows if h in hints]) == 1, (who, rows)


def test_a_hint_naming_two_mistakes_counts_each_once_beside_one_of_them():
    """A check that names two mistakes at once (kit/catalogue.py's ``both``) beside one that names the first
    alone: each mistake is one row of that student, and the pair is no row of its own."""
    from graders.grading.engine import checks_of
    from graders.kit.catalogue import HINTS, NAMED

    for e in registry.EXERCISES:
        checks_of(e.slug)  # the graders register their hints as they load
    says = {NAMED.match(h).group(1) for h in HINTS}
    pair = min(s for s in says if s.startswith("there are two mistakes: "))
    alone = sorted(s for s in says if s in pair and not s.startswith("there are two"))
    assert len(alone) == 2, alone  # the premise: the pair names two mistakes the graders also name alone

    def test(output):
        return {"exercise": "attention", "name": "attention: a check", "score": 0, "max_score": 1,
                "output": f"wrong. It looks like {output}."}

    klass = analysis.Class([analysis.StudentResults("ann", {"attention": 0.0}, 0.0, [test(pair), test(alone[0])])],
                           [registry.get("attention")], [])
    assert sorted(h for h, _, _ in analysis.mistakes(klass)) == alone
