"""The class report and the grade summary count right: an exercise that could not be graded counts under
its cause and never as "wrong" on each check; a timeout is among the errors; scores are rounded; the
totals histogram counts whole students; a hint that clears a step is not a mistake, and one mistake in two
wordings is one row; a report can be limited to an assignment's exercises."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.report import analysis, classreport
from graders.cli import main
from graders.grading.engine import checks_of
from graders.grading.report import pts
from graders.outfolder.outfiles import gradebook_text, results_path, write_atomic
from graders.kit.catalogue import HINTS, NAMED
from graders.kit.models import NO_SHIFT

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_classreport import Tables  # noqa: E402

LOOPS = "import numpy as np\n\n\ndef softmax(x, axis=-1):\n    while True:\n        pass\n"
UNCLOSED = "import numpy as np\n\n\ndef causal_mask(n):\n    return np.tril(np.ones((n, n), dtype=bool)\n"
EXONERATION = "your scaling step Var(q·k) / (√d_k)² is right, so the problem is in dot_variance()"


def _page(out: Path, *args) -> Tables:
    assert main(["report", str(out), *args]) == 0
    tables = Tables()
    tables.feed((out / "report.html").read_text(encoding="utf-8"))
    return tables


# ------------------------------------------------------------------ a class graded for real
@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """ann's softmax loops forever, bob's attention.py has an unclosed bracket, cy is right."""
    root = tmp_path_factory.mktemp("counts")
    subs, out = root / "subs", root / "graded"
    files = {"ann": {"softmax": LOOPS, "attention": None}, "bob": {"softmax": None, "attention": UNCLOSED},
             "cy": {"softmax": None, "attention": None}}
    for name, answers in files.items():
        (subs / name).mkdir(parents=True)
        for slug, text in answers.items():
            text = text or (ROOT / "solutions" / f"{slug}.py").read_text(encoding="utf-8")
            (subs / name / f"{slug}.py").write_text(text, encoding="utf-8")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        code = main(["grade", str(subs), "--out", str(out), "--no-progress", "--jobs", "2", "--timeout", "2",
                     "--assignment", "part3_attention"])
    assert code == 0, said.getvalue()
    return out, said.getvalue()


def test_a_timeout_is_among_the_submissions_with_errors(graded):
    _, said = graded
    errors = said.split("Submissions with errors", 1)[-1]
    assert "Submissions with errors (2):" in said, said
    assert "ann: softmax: " in errors and "timed out after 2 s while running softmax()" in errors, said
    assert "bob: attention: attention.py has a syntax error" in errors


def test_a_timeout_and_a_syntax_error_count_under_their_cause(graded):
    out, _ = graded
    errors = analysis.errors(analysis.load(out))
    assert [(s, x) for s, x, _ in errors.get("timed out", [])] == [("ann", "softmax")], errors
    assert [(s, x) for s, x, _ in errors.get("unreadable", [])] == [("bob", "attention")], errors
    assert sorted(errors) == ["missing", "timed out", "unreadable"]  # multi_head: handed in by no one
    _page(out)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h3>timed out (1)</h3>" in page and "<h3>unreadable (1)</h3>" in page


def test_what_could_not_be_graded_is_never_wrong_on_each_check(graded):
    out, _ = graded
    rows = _page(out).tables["items"][1:]
    lost = [(x, check, wrong) for x, check, _, wrong, *_ in rows if x in ("softmax", "attention")]
    assert not lost, f"checks lost though every answer graded was right: {lost}"
    shares = {(i.exercise, i.students, i.ungraded) for i in analysis.items(analysis.load(out))}
    assert ("softmax", 2, 1) in shares and ("attention", 2, 1) in shares, shares


# ------------------------------------------------------------------ classes written by hand
def _test(slug, name, score, of, output=""):
    return {"name": f"{slug}: {name}", "exercise": slug, "score": score, "max_score": of,
            "status": "passed" if score >= of else "failed", "output": output, "visibility": "visible",
            "extra_data": {"outcome": "passed" if score >= of else "failed"}}


def _class(out: Path, students: dict, slugs=None, flags=None) -> Path:
    """OUT as 'attn-grade grade' writes it: students maps a name to its results.json tests."""
    for name, tests in students.items():
        write_atomic(results_path(out, name), json.dumps({"tests": tests}))
    write_atomic(out / "gradebook.csv", gradebook_text(out, list(students), slugs))
    if flags is not None:
        write_atomic(out / "integrity.json", json.dumps(flags))
    return out


def _whole(slug, score):
    """One check worth the whole exercise: ``score`` of it."""
    return _test(slug, "agrees with the reference", score, registry.get(slug).points)


def test_scores_are_rounded_as_the_text_report_rounds(tmp_path):
    out = _class(tmp_path, {"ben": [_whole("hand_scores", 4.428571), _whole("softmax", 9.75)],
                            "cleo": [_whole("hand_scores", 8), _whole("softmax", 10 / 3)]}, ["hand_scores", "softmax"])
    tables = _page(out)
    assert tables.tables["students"][1:] == [["ben", "4.43", "9.75", "14.18"], ["cleo", "8", "3.33", "11.33"]]
    shown = re.sub(r"<[^>]*>", "", (out / "report.html").read_text(encoding="utf-8"))  # exact in data-v, to sort
    assert "ben: 14.18/18" in shown and "4.42857" not in shown and "11.3333" not in shown


def test_the_totals_histogram_counts_whole_students(tmp_path, monkeypatch):
    out = _class(tmp_path, {f"s{i}": [_whole("softmax", v)] for i, v in enumerate((2, 5, 9.5))}, ["softmax"])
    ticks = []
    monkeypatch.setattr(classreport, "_png", lambda fig: ticks.append(list(fig.axes[0].get_yticks())) or "")
    classreport.plots(analysis.load(out))
    assert ticks and len(ticks[0]) >= 2 and all(float(t).is_integer() for t in ticks[0]), ticks[0]


def test_a_hint_that_clears_a_step_is_not_a_mistake(tmp_path):
    out = _class(tmp_path, {"ada": [_test("variance_proof", "Var(q·k / √d_k) is exact", 0, 1,
                                          f"wrong. It looks like {EXONERATION}.")]}, ["variance_proof"])
    assert analysis.mistakes(analysis.load(out)) == []
    assert "mistakes" not in _page(out).tables


def test_one_overflow_mistake_in_two_exercises_is_one_row_counting_each_student_once(tmp_path):
    both = [_test("softmax", "finite", 0, 1, f"got inf. It looks like {NO_SHIFT}."),
            _test("worked_example", "finite", 0, 1, f"got nan. It looks like {NO_SHIFT}.")]
    out = _class(tmp_path, {"ada": both, "ben": both[1:], "cy": [_test("softmax", "finite", 1, 1)]},
                 ["worked_example", "softmax"])
    assert _page(out).tables["mistakes"][1:] == [[NO_SHIFT, "2 (67 %)"]]


def test_the_overflow_mistake_has_one_wording_in_every_grader():
    """So the report counts it as one mistake without merging wordings of its own."""
    for e in registry.EXERCISES:
        checks_of(e.slug)  # the graders register their hints as they load
    named = {m for h in HINTS if "overflow" in h  # as the report reads a hint, one naming two mistakes too
             for m in analysis.one_each([NAMED.match(h).group(1)]) if "overflow" in m}
    assert named == {NO_SHIFT}, named  # the hint, and the same hint where there is more than one mistake


def _term():
    """A student who did part3_attention only: the other exercises' files were not found."""
    tests = [_whole("softmax", 7.5), _whole("attention", 14), _whole("multi_head", 6)]
    return tests + [_test(e.slug, "agrees with the reference", 0, e.points,
                          f"not graded: {e.slug}.py was not found in the folder x/")
                    for e in registry.EXERCISES if e.assignment != "part3_attention"]


def test_a_report_can_be_limited_to_an_assignment(tmp_path):
    flag = {"student": "ada", "where": "hand_scores.py", "kind": "identical answers", "detail": "as ben"}
    out = _class(tmp_path, {"ada": _term(), "ben": _term()}, flags=[flag])
    tables = _page(out, "--assignment", "part3_attention")
    part3 = [e for e in registry.EXERCISES if e.assignment == "part3_attention"]
    scores = {"softmax": "7.5", "attention": "14", "multi_head": "6"}  # the exercises _term hands in
    row = [scores.get(e.slug, "0") for e in part3]
    assert tables.tables["students"] == [["student", *(e.slug for e in part3), "total"],
                                         ["ada", *row, "27.5"], ["ben", *row, "27.5"]]
    assert {row[0] for row in tables.tables["items"][1:]} == {"softmax", "multi_head"}
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "hand_scores" not in page and f"mean total 27.50 of {pts(sum(e.points for e in part3))}" in page


def test_only_the_gradebooks_exercises_are_shown(tmp_path):
    out = _class(tmp_path, {"ada": _term()}, ["softmax", "attention", "multi_head"])
    tables = _page(out)
    assert {row[0] for row in tables.tables["items"][1:]} == {"softmax", "multi_head"}
    assert "hand_scores" not in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, says", [("part1_scores", "holds no exercise of part1_scores; its exercises are "
                                                          "softmax, attention, multi_head"),
                                        ("part9", "invalid choice: 'part9'")])
def test_an_assignment_not_in_the_gradebook_is_a_usage_error(tmp_path, capsys, name, says):
    out = _class(tmp_path, {"ada": _term()}, ["softmax", "attention", "multi_head"])
    with pytest.raises(SystemExit) as info:
        main(["report", str(out), "--assignment", name])
    err = capsys.readouterr().err
    assert info.value.code == 2 and says in err and "Traceback" not in err, err
