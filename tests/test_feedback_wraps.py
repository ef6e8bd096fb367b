"""A failed check's message fits the page in a notebook, nbgrader's feedback and formgrader.

Unwrapped, the rows of an array stood under its first row, 140-260 columns in,
and the diagnosis after it ("It looks like the scores are not divided by √d_k")
was off to the right of nbgrader's feedback page, behind a horizontal scroll
bar. The test cells' text (what ``public_checks`` prints in the student's
kernel, and what ``attn-grade grade --nbgrader-course`` writes into the
autograded notebooks: nbfill.py) is now wrapped at report.PAGE_WIDTH columns.
The pages are nbgrader's own templates, feedback and formgrade (classic
nbconvert: stream output in <pre>, which scrolls sideways rather than wrap),
rendered with nbconvert as ``nbgrader generate_feedback`` and formgrader
render them; tests/test_nbgrade.py runs the real ``generate_feedback``.
Formgrader's own stylesheets come from its server and are missing here.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from graders.grading.engine import ROOT, grade_file
from graders.grading.notebook import public_checks
from support.browser import framed  # headless Chromium, or a skip (or a failure in CI)

MUTANT = ROOT / "tests" / "mutants" / "attention" / "no_scaling.py"
DIAGNOSIS = "It looks like the scores are not divided by √d_k."
NOTEBOOK = ROOT / "course" / "source" / "part3_attention" / "attention.ipynb"
PAGE_WIDTH = 77  # columns: what nbgrader's feedback page shows in a window 800 px wide


def _check_text(text: str) -> None:
    """Every line fits the page, none is spaces only, and the diagnosis is said in full."""
    lines = text.splitlines()
    widest = max(lines, key=len)
    assert len(widest) <= PAGE_WIDTH, f"{len(widest)} columns:\n{widest}"
    assert all(line.strip() for line in lines[:-1] if line), "a line of spaces only"
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
    from graders.classroom.nbgrader.nbfill import fill_class
    from graders.outfolder.outfiles import results_path

    path = results_path(tmp / "out", "mutant")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(results), encoding="utf-8")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "attention-answer":
            cell.source = MUTANT.read_text(encoding="utf-8")
    nb, _ = fill_class()(out=str(tmp / "out")).preprocess(nb, {"nbgrader": {"student": "mutant"}})
    return nb


def test_the_text_nbgrader_is_given_fits_the_page(mutant_results, tmp_path):
    nb = _autograded(mutant_results, tmp_path)
    texts = [o["text"] for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "stream"]
    assert len(texts) == 2  # the public and the hidden checks' cells
    for text in texts:
        _check_text(text)


def _page(results: dict, tmp: Path, template: str) -> Path:
    """The page nbgrader makes of the autograded notebook: ``nbgrader generate_feedback``'s ("feedback")
    or formgrader's ("formgrade"), with nbgrader's templates and stylesheets."""
    pytest.importorskip("nbgrader")
    import nbgrader
    from nbconvert import HTMLExporter

    formgrader = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    exporter = HTMLExporter(template_name=template, extra_template_basedirs=[str(formgrader / "templates")],
                            extra_template_paths=[str(formgrader / "static/node_modules/bootstrap/dist/css")])
    nb = _autograded(results, tmp)
    for cell in nb.cells:  # what nbgrader's GetGrades reads from the gradebook for the feedback
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") or meta.get("task"):
            meta["comment"] = None
        if meta.get("grade") or meta.get("task"):
            value = [o for o in cell.get("outputs", []) if o.get("output_type") == "execute_result"]
            meta["score"] = float(value[0]["data"]["text/plain"]) if value else None
            meta["points"] = meta.get("points", 0)
    resources = {"nbgrader": {"notebook": "attention", "score": 0, "max_score": 14, "late_penalty": 0},
                 "assignment_id": "part3_attention", "notebook_id": "attention", "submission_id": "1", "index": 0,
                 "total": 1, "base_url": "", "student": "mutant", "last_name": "", "first_name": "",
                 "notebook_path": "autograded/mutant/part3_attention/attention.ipynb"}  # formgrader's
    page, _ = exporter.from_notebook_node(nb, resources=resources)
    out = tmp / f"{template}.html"
    out.write_text(page, encoding="utf-8")
    return out


@pytest.mark.parametrize("template", ["feedback", "formgrade"])
def test_the_pages_text_fits_the_page(mutant_results, tmp_path, template):
    page = _page(mutant_results, tmp_path, template).read_text(encoding="utf-8")
    blocks = re.findall(r'<div class="output_subarea output_stream output_stdout output_text">\s*<pre>(.*?)</pre>',
                        page, re.S)
    assert len(blocks) == 2, "the public and the hidden checks' outputs"
    for block in blocks:
        _check_text(html.unescape(re.sub(r"<[^>]+>", "", block)))


@pytest.mark.parametrize("template", ["feedback", "formgrade"])
@pytest.mark.parametrize("width", [1280, 800])
def test_the_page_never_scrolls_sideways_in_chromium(mutant_results, tmp_path, template, width):
    """In a window ``width`` px wide no output of the page scrolls sideways, nor the page (its
    scripts from the network, MathJax and formgrader's, are left out: tests have no network)."""
    page = _page(mutant_results, tmp_path, template)
    page.write_text(re.sub(r"<script[^>]*\bsrc=[^>]*>\s*</script>", "", page.read_text(encoding="utf-8")),
                    encoding="utf-8")
    body, done = framed(page, tmp_path, f"width:{width}px;height:900px;border:0",
                        "var d=f.contentDocument,worst=0,n=0;"
                        "d.querySelectorAll('div.output_area, div.output_area *').forEach(function(b){"
                        "n+=b.tagName=='PRE';if(b.clientWidth)worst=Math.max(worst,b.scrollWidth-b.clientWidth)});"
                        "var r=d.documentElement;document.body.dataset.pres=n;document.body.dataset.overflow=worst;"
                        "document.body.dataset.page=r.scrollWidth-r.clientWidth")
    assert body and 'data-pres="4"' in body, done.stdout[-500:] + done.stderr[-1500:]  # 2 texts, 2 values
    assert 'data-overflow="0"' in body and 'data-page="0"' in body, body


@pytest.mark.parametrize("width", range(30, 90))
def test_a_short_term_in_parentheses_is_never_broken(width):
    """At 80 columns 'e^(0 - 1)' once came out as 'e^(0' and '- 1) = 0.37' on the next line."""
    from graders.terminal.wrap import wrap

    text = ("called softmax([[0, 1]], axis=-1); got [[0.3333, 0.6667]]. Along axis -1, the entries 0 and 1 got "
            "weights in the ratio 0.5, but e^(0 - 1) = 0.367879, with shape (n_heads, N, d_k).")
    lines = wrap(text, 6, width)
    assert sum("e^(0 - 1)" in line for line in lines) == 1 and sum("(n_heads, N, d_k)" in line for line in lines) == 1
    assert " ".join(line.strip() for line in lines) == text
