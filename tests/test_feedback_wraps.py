"""A failed check's message fits the page in a notebook, nbgrader's feedback and formgrader.

Unwrapped, the rows of an array stood under its first row, 140-260 columns in,
and the diagnosis after it ("It looks like the scores are not divided by √d_k")
was off to the right of nbgrader's feedback page, behind a horizontal scroll
bar. The test cells' text (what ``public_checks`` prints in the student's
kernel, and what ``attn-grade grade --nbgrader-course`` writes into the
autograded notebooks: nbfill.py) is now wrapped at PAGE_WIDTH. The page is
nbgrader's own feedback template (which formgrader's shares: classic
nbconvert, stream output in <pre>), rendered here with nbconvert as
``nbgrader generate_feedback`` renders it; tests/test_nbgrade.py runs the real
command.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from graders.grading.engine import ROOT, grade_file
from graders.grading.notebook import public_checks
from test_classreport import _chromium  # noqa: E402 - headless Chromium, or a skip (or a failure in CI)

MUTANT = ROOT / "tests" / "mutants" / "attention" / "no_scaling.py"
DIAGNOSIS = "It looks like the scores are not divided by √d_k."
NOTEBOOK = ROOT / "course" / "source" / "part3_attention" / "attention.ipynb"
PAGE_WIDTH = 100  # columns: what nbgrader's feedback shows in a window 1280 px wide (report.PAGE_WIDTH)


def _check_text(text: str) -> None:
    """Every line fits PAGE_WIDTH columns; no line starts past the middle of the page; the diagnosis is said."""
    lines = text.splitlines()
    widest = max(lines, key=len)
    assert len(widest) <= PAGE_WIDTH, f"{len(widest)} columns:\n{widest}"
    deepest = max(len(line) - len(line.lstrip(" ")) for line in lines)
    assert deepest <= PAGE_WIDTH // 2 + 10, f"a line starts {deepest} columns in"
    assert DIAGNOSIS in " ".join(text.split()), text  # whole, though perhaps across two lines


@pytest.fixture(scope="module")
def mutant_results():
    from graders.grading.results import to_gradescope

    result = grade_file("attention", MUTANT)
    assert any(DIAGNOSIS in c.message for c in result.checks if c.visibility == "public")
    return to_gradescope([result])


def test_what_a_test_cell_prints_in_the_students_kernel_fits_the_page(tmp_path, monkeypatch, capsys):
    source = MUTANT.read_text(encoding="utf-8")
    cell = {"cell_type": "code", "execution_count": None, "id": "a", "outputs": [], "source": source,
            "metadata": {"nbgrader": {"grade_id": "attention-answer", "solution": True, "grade": False,
                                      "locked": False, "schema_version": 3}}}
    (tmp_path / "attention.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                                          "nbformat_minor": 5}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    namespace = {"__name__": "__main__"}
    exec(compile(source, str(tmp_path / "cell.py"), "exec"), namespace)
    points = public_checks("attention", namespace)
    out = capsys.readouterr().out
    assert 0 < points and "Public checks of attention:" in out
    _check_text(out)


def _autograded(results: dict, tmp: Path):
    """attention.ipynb with the mutant's results in its test cells, as nbgrader's Autograde writes it
    when ``attn-grade grade --nbgrader-course`` stands in for its Execute step (nbfill.py)."""
    nbformat = pytest.importorskip("nbformat")
    from graders.classroom.nbfill import fill_class
    from graders.grading.outfiles import results_path

    path = results_path(tmp / "out", "mutant")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(results), encoding="utf-8")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb, _ = fill_class()(out=str(tmp / "out")).preprocess(nb, {"nbgrader": {"student": "mutant"}})
    return nb


def test_the_text_nbgrader_is_given_fits_the_page(mutant_results, tmp_path):
    nb = _autograded(mutant_results, tmp_path)
    texts = [o["text"] for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "stream"]
    assert len(texts) == 2  # the public and the hidden checks' cells
    for text in texts:
        _check_text(text)


def _feedback_page(results: dict, tmp: Path) -> Path:
    """The feedback page ``nbgrader generate_feedback`` would write: its template, its stylesheets."""
    pytest.importorskip("nbgrader")
    import nbgrader
    from nbconvert import HTMLExporter

    templates = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    exporter = HTMLExporter(template_name="feedback", extra_template_basedirs=[str(templates / "templates")],
                            extra_template_paths=[str(templates / "static/node_modules/bootstrap/dist/css")])
    nb = _autograded(results, tmp)
    for cell in nb.cells:  # what nbgrader's GetGrades reads from the gradebook
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") or meta.get("task"):
            meta["comment"] = None
        if meta.get("grade") or meta.get("task"):
            value = [o for o in cell.get("outputs", []) if o.get("output_type") == "execute_result"]
            meta["score"] = float(value[0]["data"]["text/plain"]) if value else None
            meta["points"] = meta.get("points", 0)
    resources = {"nbgrader": {"notebook": "attention", "score": 0, "max_score": 14, "late_penalty": 0}}
    page, _ = exporter.from_notebook_node(nb, resources=resources)
    out = tmp / "attention.html"
    out.write_text(page, encoding="utf-8")
    return out


def test_the_feedback_pages_text_fits_the_page(mutant_results, tmp_path):
    page = _feedback_page(mutant_results, tmp_path).read_text(encoding="utf-8")
    blocks = re.findall(r'<div class="output_subarea output_stream output_stdout output_text">\s*<pre>(.*?)</pre>',
                        page, re.S)
    assert len(blocks) == 2, "the public and the hidden checks' outputs"
    for block in blocks:
        _check_text(html.unescape(re.sub(r"<[^>]+>", "", block)))


@pytest.mark.parametrize("width", [1280, 800])
def test_the_feedback_page_never_scrolls_sideways_in_chromium(mutant_results, tmp_path, width):
    """In a window ``width`` px wide no output box of the feedback page is wider than it shows."""
    page = _feedback_page(mutant_results, tmp_path)
    probe = tmp_path / "probe.html"
    probe.write_text(
        f"<!doctype html><body><iframe id=f style='width:{width}px;height:900px;border:0'></iframe><script>"
        "var f=document.getElementById('f');f.onload=function(){var d=f.contentDocument,worst=0,n=0;"
        "d.querySelectorAll('div.output_subarea').forEach(function(b){n++;"
        "worst=Math.max(worst,b.scrollWidth-b.clientWidth)});var r=d.documentElement;"
        "document.body.dataset.boxes=n;document.body.dataset.overflow=worst;"
        "document.body.dataset.page=r.scrollWidth-r.clientWidth};"
        f"f.src={json.dumps(page.as_uri())};</script></body>")
    done = _chromium(probe, tmp_path, "--dump-dom", "--virtual-time-budget=5000", "--allow-file-access-from-files")
    body = re.search(r"<body[^>]*>", done.stdout)
    assert body and "data-boxes=" in body.group(), done.stdout[-500:] + done.stderr[-1500:]
    assert 'data-overflow="0"' in body.group() and 'data-page="0"' in body.group(), body.group()
