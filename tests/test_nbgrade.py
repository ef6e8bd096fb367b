"""attn-grade grade on nbgrader's submitted/ layout: extraction, hardening, the gradebook, parity.

One nbgrader course (course/'s config and notebooks, or a spec-built stand-in
until course/source/ exists) gets a small class of notebook submissions; it is
graded once by ``attn-grade grade --nbgrader-course`` and, for part3_attention,
once by the real ``nbgrader autograde`` (kernels) to compare.
"""

import csv
import html as htmllib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from graders import registry  # noqa: E402
from graders.classroom.grade import Options, run  # noqa: E402
from graders.cli import main  # noqa: E402
from graders.classroom.nbgrader.nbsubmit import NotebookProblem, answer_source, neutralise_magics  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
from support import nbclass as nbkit  # noqa: E402 - tests/support, shared with bench/
from support.once import once_per_session  # noqa: E402

SOLUTION = {e.slug: (ROOT / "solutions" / f"{e.slug}.py").read_text() for e in registry.EXERCISES}
MUTANTS = {"softmax": ROOT / "tests/mutants/softmax/no_max_shift.py",
           "attention": ROOT / "tests/mutants/attention/mask_after_softmax.py",
           "worked_example": ROOT / "tests/mutants/worked_example/divide_by_dk.py"}
CHEAT_EARNS = 4  # zeros of the right shape: the shape, weights in [0, 1], shift invariance, input unchanged

# The answer cell of softmax patches NumPy (so in-process comparisons all "agree") and IPython's
# float formatter (so every test cell's value displays as text that is not a float). nbgrader's
# own autograde runs this cell in the kernel that then runs the test cells: a non-float value
# counts as full marks there, so nbgrader is fooled (the test below shows it). We never run the
# notebook; the cell is imported in the sandbox, where the patches change nothing we compare.
CHEAT = '''import numpy as np

np.allclose = lambda *a, **k: True
np.isclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
try:
    get_ipython().display_formatter.formatters["text/plain"].for_type(float, lambda x, p, c: p.text("ok"))
except NameError:
    pass


def softmax(z, axis=-1):
    return np.zeros_like(z)
'''
# An extra cell (not the answer cell) that would stop a grader running the whole notebook.
HOSTILE_CELL = "import os\nopen('PWNED', 'w').write('an extra cell ran')\nos._exit(0)\n"
MAGICS = "%matplotlib inline\n!pip list\n" + SOLUTION["hand_scores"]


def _extra_cell(source):
    def change(nb):
        nb["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                            "source": source})
        return nb
    return change


def _two_answer_cells(slug):
    def change(nb):
        cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == f"{slug}-answer")
        nb["cells"].append(json.loads(json.dumps(cell)))  # what copying a cell in Jupyter does
        return nb
    return change


def _no_answer_cell(slug):
    def change(nb):
        nb["cells"] = [c for c in nb["cells"]
                       if c["metadata"].get("nbgrader", {}).get("grade_id") != f"{slug}-answer"]
        return nb
    return change


def _deep_json(nb):
    """A notebook whose JSON is nested 100,000 levels deep (valid JSON all the same)."""
    return json.dumps(nb)[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"


# Crafted notebooks: each must cost only its own exercise, with the reason, never the batch.
CRAFTED = {**SOLUTION, "softmax": _deep_json, "attention": "y = " + "-" * 100_000 + "1\n" + SOLUTION["attention"],
           "multi_head": SOLUTION["multi_head"] + "#" * 300_000 + "\n"}

def _changed_public_cell(nb):
    """What a student who edits the locked public-checks cell hands in (nbgrader restores it)."""
    nbkit.set_answer(nb, "softmax", SOLUTION["softmax"])
    for cell in nb["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == "softmax-public":
            cell["source"] = "print('all good')\n8.0"
    return nb


CLASS = {
    "ref": dict(SOLUTION),
    "stub": {},  # every released notebook untouched
    "mutant": {**SOLUTION, **{s: p.read_text() for s, p in MUTANTS.items()}},
    "broken": {**SOLUTION, "softmax": lambda nb: '{"cells": [', "attention": _no_answer_cell("attention"),
               "multi_head": _two_answer_cells("multi_head"), "hand_scores": MAGICS, "saturation": None},
    "cheat": {**SOLUTION, "softmax": CHEAT},
    "hostile": {**SOLUTION, "softmax": lambda nb: _extra_cell(HOSTILE_CELL)(
        nbkit.set_answer(nb, "softmax", SOLUTION["softmax"]))},
    "crafted": CRAFTED,
    "tamper": {**SOLUTION, "softmax": _changed_public_cell},  # and a changed attn_checks/, see _grade_class
}


def _grade_class(root: Path):
    course = nbkit.make_course(root / "course")
    for student, answers in CLASS.items():
        nbkit.submit(course, student, answers)
    checks = course / "submitted" / "tamper" / "part3_attention" / "attn_checks"
    shutil.copytree(course / "release" / "part3_attention" / "attn_checks", checks)
    with open(checks / "softmax.py", "a") as f:
        f.write("\n# every check passes now\n")
    code = main(["grade", str(course / "submitted"), "--out", str(root / "graded"), "--nbgrader-course",
                 str(course), "--no-progress", "--jobs", "2"])
    assert code == 0


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Built and graded once per session even when pytest-xdist spreads this module over processes:
    the first to get here does it, the others wait for it. Tests must not change it."""
    root, _ = once_per_session(tmp_path_factory, "nbgrade", _grade_class)
    return root / "course", root / "graded"


def _per_exercise(out, student):
    per = dict.fromkeys((e.slug for e in registry.EXERCISES), 0.0)
    for t in json.loads((out / "students" / student / "results.json").read_text())["tests"]:
        per[t["exercise"]] += t["score"]
    return per


def _tests(out, student, slug):
    return [t for t in json.loads((out / "students" / student / "results.json").read_text())["tests"] if t["exercise"] == slug]


def test_reference_full_marks_stub_zero_mutant_loses_points(graded):
    _, out = graded
    assert _per_exercise(out, "ref") == {e.slug: e.points for e in registry.EXERCISES}
    assert set(_per_exercise(out, "stub").values()) == {0.0}
    mutant = _per_exercise(out, "mutant")
    for e in registry.EXERCISES:
        assert (mutant[e.slug] < e.points) == (e.slug in MUTANTS), e.slug


def test_broken_notebooks_score_zero_with_the_reason(graded):
    _, out = graded
    per = _per_exercise(out, "broken")
    reasons = {"softmax": "not valid JSON", "attention": "has no answer cell", "multi_head": "2 cells with grade id",
               "saturation": "saturation.ipynb was not found in broken/part2_saturation/"}
    for slug, words in reasons.items():
        assert per[slug] == 0
        assert all(words in t["output"] for t in _tests(out, "broken", slug) if t["max_score"]), slug
    assert per["variance_proof"] == registry.get("variance_proof").points  # the rest is graded as usual


def test_crafted_notebooks_cost_only_their_own_exercise(graded):
    _, out = graded
    per = _per_exercise(out, "crafted")
    reasons = {"softmax": "nested far too deeply", "multi_head": "more than any answer needs",
               "attention": "attention.py"}
    for slug, words in reasons.items():
        assert per[slug] == 0, slug
        assert all(words in t["output"] for t in _tests(out, "crafted", slug) if t["max_score"]), slug
    for e in registry.EXERCISES:
        if e.slug not in reasons:
            assert per[e.slug] == e.points, e.slug


def test_integrity_flags_what_the_hardening_defeated_and_changes_no_score(graded):
    _, out = graded
    flags = {(f["student"], f["where"], f["kind"], f["detail"]) for f in json.loads((out / "integrity.json").read_text())}
    softmax = "part3_attention/softmax.ipynb"
    assert ("cheat", softmax, "patches the grader", "assigns to np.allclose") in flags
    assert ("cheat", softmax, "patches the grader", "uses get_ipython") in flags
    assert ("hostile", softmax, "outside the answer cell", "a cell defines os") in flags
    assert ("tamper", softmax, "checks cell changed", "the locked cell softmax-public is not the release's") in flags
    assert ("tamper", "part3_attention/attn_checks", "attn_checks changed", "differs from the release: softmax.py") \
        in flags
    copied = {f[0] for f in flags if f[2] == "identical answers" and f[1] == "part1_scores/variance_proof.ipynb"}
    assert {"ref", "mutant", "cheat", "hostile", "tamper"} <= copied and "stub" not in copied
    assert not [f for f in flags if f[0] in ("ref", "stub") and f[2] != "identical answers"]
    assert _per_exercise(out, "tamper")["softmax"] == registry.get("softmax").points  # flags only


def test_magic_lines_are_commented_out_and_said_in_the_feedback(graded):
    _, out = graded
    assert _per_exercise(out, "broken")["hand_scores"] == registry.get("hand_scores").points
    notes = [t for t in _tests(out, "broken", "hand_scores") if t["max_score"] == 0]
    assert len(notes) == 1 and "%matplotlib inline" in notes[0]["output"] and "!pip list" in notes[0]["output"]
    source = (out / ".sources" / "broken" / "hand_scores.py").read_text()
    assert "pass  # IPython line not run by the grader: %matplotlib inline" in source


def test_patching_numpy_and_ipython_earns_nothing_and_extra_cells_never_run(graded):
    _, out = graded
    assert _per_exercise(out, "cheat")["softmax"] == CHEAT_EARNS
    assert _per_exercise(out, "hostile")["softmax"] == registry.get("softmax").points
    assert "PWNED" not in (out / ".sources" / "hostile" / "softmax.py").read_text()
    assert not list(out.parent.rglob("PWNED"))


def test_scores_equal_those_of_the_same_code_as_py_files(graded, tmp_path):
    course, out = graded
    subs = tmp_path / "class"
    for student in ("mutant", "cheat"):
        shutil.copytree(out / ".sources" / student, subs / student)
    run(Options(subs, tmp_path / "py", jobs=2, progress=False), say=lambda *_: None)
    for student in ("mutant", "cheat"):
        assert _per_exercise(tmp_path / "py", student) == _per_exercise(out, student)


def test_gradebook_and_nbgrader_export_hold_our_scores(graded):
    course, out = graded
    ours = nbkit.our_scores(out)
    book = nbkit.nbgrader_scores(course)
    assert book and all(book[k] == pytest.approx(ours[k]) for k in book)
    subprocess.run([nbkit._exe("nbgrader"), "export", "--log-level=ERROR"], cwd=course, check=True,
                   capture_output=True, env=nbkit._env())
    rows = list(csv.DictReader((course / "grades.csv").open()))
    for row in rows:
        want = sum(ours[(row["student_id"], e.slug)] for e in registry.of_assignment(row["assignment"]))
        assert float(row["score"]) == pytest.approx(want, abs=1e-5), row
    assert {r["student_id"] for r in rows} == set(CLASS)


def test_generate_feedback_shows_our_feedback(graded):
    course, _ = graded
    proc = subprocess.run([nbkit._exe("nbgrader"), "generate_feedback", "part3_attention", "--force",
                           "--student=mutant", "--log-level=ERROR"], cwd=course, capture_output=True, text=True,
                          env=nbkit._env())
    assert proc.returncode == 0, proc.stderr
    html = (course / "feedback" / "mutant" / "part3_attention" / "softmax.html").read_text()
    assert "stays finite and sums to 1 for entries as large as" in html and "overflows" in html
    for slug in ("softmax", "attention"):  # the checks' text fits the page (77 columns at 800 px): no scroll bar
        page = (course / "feedback" / "mutant" / "part3_attention" / f"{slug}.html").read_text()
        texts = re.findall(r'output_stdout output_text">\s*<pre>(.*?)</pre>', page, re.S)
        widths = [len(line) for t in texts for line in htmllib.unescape(re.sub(r"<[^>]+>", "", t)).splitlines()]
        assert len(texts) == 2 and max(widths) <= 77, (slug, max(widths))


def test_honest_scores_equal_nbgrader_autograde(graded, tmp_path):
    """The real nbgrader, kernels and all, on part3_attention; it is fooled by the cheat, we are not."""
    course, out = graded
    ours = nbkit.our_scores(out)
    course = Path(shutil.copytree(course, tmp_path / "course", symlinks=True))
    nbkit.nbgrader_autograde(course, ["part3_attention"], students=["mutant", "cheat"])
    theirs = nbkit.nbgrader_scores(course)
    for student in ("mutant", "cheat"):  # the mutant: full marks on one notebook, partial on two
        for e in registry.of_assignment("part3_attention"):
            if (student, e.slug) != ("cheat", "softmax"):
                assert theirs[(student, e.slug)] == pytest.approx(ours[(student, e.slug)], abs=1e-5), (student, e.slug)
    assert theirs[("cheat", "softmax")] == registry.get("softmax").points  # fooled: full marks
    assert ours[("cheat", "softmax")] == CHEAT_EARNS


def test_answer_cell_rules(tmp_path):
    good = {"cells": [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "softmax-answer"}},
                       "source": ["x = 1\n", "y = 2\n"]}]}
    assert answer_source_of(good, tmp_path) == "x = 1\ny = 2\n"
    good["cells"][0]["cell_type"] = "markdown"
    with pytest.raises(NotebookProblem, match="not a code cell"):
        answer_source_of(good, tmp_path)
    assert neutralise_magics("x = 1\n") == ("x = 1\n", [])
    assert neutralise_magics("%%bash\necho 'hi' > out.txt\n")[1] == []  # not Python even without the magic: as written
    fixed, notes = neutralise_magics("def f():\n    %time g()\n")
    assert fixed == "def f():\n    pass  # IPython line not run by the grader: %time g()\n" and notes


def answer_source_of(nb, tmp):
    path = tmp / "softmax.ipynb"
    path.write_text(json.dumps(nb))
    return answer_source(path, "softmax")


def test_gradebook_option_needs_the_notebook_layout_and_a_course(tmp_path, capsys):
    subs = tmp_path / "class"
    (subs / "ann").mkdir(parents=True)
    (tmp_path / "course").mkdir()
    with pytest.raises(SystemExit) as info:
        main(["grade", str(subs), "--out", str(tmp_path / "out"), "--nbgrader-course", str(tmp_path / "course")])
    assert info.value.code == 2 and "needs nbgrader's layout" in capsys.readouterr().err
    (subs / "ann" / "part3_attention").mkdir()
    (subs / "ann" / "part3_attention" / "softmax.ipynb").write_text("{}")
    with pytest.raises(SystemExit) as info:
        main(["grade", str(subs), "--out", str(tmp_path / "out"), "--nbgrader-course", str(tmp_path / "course")])
    assert info.value.code == 2 and "no nbgrader_config.py" in capsys.readouterr().err
