"""Math renders offline in the pages of the course: formgrader's, and the feedback files students get.

This machine, like a laptop on a train, reaches no CDN: a page that needs one shows raw ``$…$``.
graders/classroom/nbgrader/mathpages.py turns formulas into MathML as nbgrader writes a page, and gives
formgrader MathJax from the Jupyter server (jupyter_server_mathjax), which formgrader's script needs.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from graders.classroom.nbgrader import mathpages
from support.browser import chromium, framed  # headless Chromium, or a skip (or a failure in CI)
from test_nbgrade import graded  # noqa: F401 - the shared graded course (built once per session)

CDN = "cdnjs.cloudflare.com"


@pytest.mark.parametrize("tex", [r"\operatorname{Var}(q \cdot k) = d_k", r"\frac{1}{\sqrt{d_k}}", r"\mathbb{E}[X]",
                                 r"\sum_{i=1}^{d_k} q_i k_i", "a < b"])
def test_a_formula_becomes_mathml(tex):
    out = mathpages.to_mathml(tex, display=False)
    assert out is not None and out.startswith("<math") and 'display="inline"' in out, out


@pytest.mark.parametrize("tex", [r"\href{javascript:alert(1)}{x}", r"\style{background:url(x)}{y}",
                                 r"\text{<img src=x onerror=alert(1)>}", r"\text{a & b}", "{" * 2000 + "}" * 2000,
                                 r"\sqrt" * 3000 + "x", "x" * (mathpages.MAX_TEX + 1)])
def test_a_formula_that_could_carry_a_link_css_or_html_or_cost_much_stays_tex(tex):
    """What a student writes between dollars is theirs: anything beyond plain MathML stays TeX."""
    started = time.process_time()
    assert mathpages.to_mathml(tex, display=True) is None
    assert time.process_time() - started < 5  # a bound far above the few ms it takes, not a benchmark


def test_the_renderer_class_is_made_once_and_each_cell_counts_its_own_formulas():
    """One class for every cell of the process; the formulas past MAX_FORMULAS stay TeX in each cell."""
    pytest.importorskip("nbconvert")
    source = " ".join(["$x$"] * (mathpages.MAX_FORMULAS + 1))
    first, second = (mathpages.markdown2html({}, source) for _ in range(2))
    assert first == second and first.count("<math") == mathpages.MAX_FORMULAS and first.endswith("$x$</p>\n")
    assert mathpages._renderer_class() is mathpages._renderer_class()


def _markdown_page(markdown: str, template: str) -> str:
    import nbformat
    import nbgrader
    from nbconvert import HTMLExporter

    css = Path(nbgrader.__file__).parent / "server_extensions/formgrader/static/node_modules/bootstrap/dist/css"
    exporter = HTMLExporter(template_name=template, extra_template_basedirs=mathpages.template_basedirs(),
                            filters={"markdown2html": mathpages.markdown2html}, extra_template_paths=[str(css)])
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(markdown)])
    resources = {"nbgrader": {"notebook": "proof", "score": 0, "max_score": 4, "late_penalty": 0}, "base_url": "",
                 "assignment_id": "a", "notebook_id": "proof", "submission_id": "1", "index": 0, "total": 1,
                 "student": "s", "last_name": "", "first_name": "", "notebook_path": "proof.ipynb"}
    return exporter.from_notebook_node(nb, resources=resources)[0]


@pytest.mark.parametrize("template", ["feedback", "formgrade"])
def test_the_pages_formulas_are_mathml_and_nothing_comes_from_a_cdn(template):
    pytest.importorskip("nbgrader")
    page = _markdown_page(r"So $\operatorname{Var}(q \cdot k) = d_k$, and $$\mathbb{E}[s] = 0.$$ Code: `$x$`; "
                          r"a link: $\href{javascript:alert(1)}{x}$.", template)
    assert page.count("<math") == 2 and '<math display="block"' in page, page[-3000:]
    assert "<code>$x$</code>" in page and r"$\href{javascript:alert(1)}{x}$" in page
    assert CDN not in page and "/static/jupyter_server_mathjax/MathJax.js" in page  # the server's, if served


@pytest.mark.system
def test_a_feedback_file_shows_its_formulas_in_chromium_with_no_network(tmp_path):
    page = tmp_path / "feedback.html"
    markdown = r"Each term: $\operatorname{Var}(q_i k_i) = 1$; in all $$\sum_i q_i k_i$$"
    page.write_text(_markdown_page(markdown, "feedback"), encoding="utf-8")
    body, done = framed(page, tmp_path, "width:900px;height:600px",
                        "var d=f.contentDocument;var m=d.querySelectorAll('math');"
                        "document.body.dataset.formulas=m.length;document.body.dataset.drawn=[].filter.call(m,"
                        "function(e){var r=e.getBoundingClientRect();return r.width>10&&r.height>5}).length;"
                        "document.body.dataset.dollars=(d.body.innerText.match(/\\$/g)||[]).length", budget_ms=3000)
    assert body and 'data-formulas="2"' in body and 'data-drawn="2"' in body, done.stdout[-800:]
    assert 'data-dollars="0"' in body, body


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.system
def test_the_proof_is_math_in_the_feedback_file_and_in_formgrader_which_gets_mathjax_from_the_server(graded, tmp_path):
    """Formgrader's script waits for MathJax.Hub: with it from the server, the page works offline."""
    from nbgrader.api import Gradebook
    course = Path(shutil.copytree(graded[0], tmp_path / "course", symlinks=True))
    proof = course / "autograded" / "ref" / "part1_scores" / "variance_proof.ipynb"
    nb = json.loads(proof.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "variance_proof-proof")
    cell["source"] = r"So $\operatorname{Var}(q \cdot k) = d_k$, and $$\operatorname{Var}(s) = 1.$$"
    proof.chmod(0o644)
    proof.write_text(json.dumps(nb), encoding="utf-8")  # what the student handed in, as formgrader shows it
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "attn-exercises") as gb:
        submission = gb.find_submission_notebook("variance_proof", "part1_scores", "ref").id
    feedback = subprocess.run([str(Path(sys.executable).parent / "nbgrader"), "generate_feedback", "part1_scores",
                               "--student=ref", "--force", "--log-level=ERROR"], cwd=course, capture_output=True,
                              text=True)
    assert feedback.returncode == 0, feedback.stderr[-2000:]
    page = (course / "feedback" / "ref" / "part1_scores" / "variance_proof.html").read_text(encoding="utf-8")
    assert page.count("<math") == 2 and CDN not in page, page[-2000:]  # the course's config, as nbgrader reads it
    server, base, token = _serve(["jupyter-server"], course, tmp_path, "/api/status")
    try:
        url = f"{base}/formgrader/submissions/{submission}/?token={token}"
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert page.count("<math") == 2 and CDN not in page, page[-2000:]
        mathjax = urllib.request.urlopen(f"{base}/static/jupyter_server_mathjax/MathJax.js?token={token}", timeout=30)
        assert mathjax.status == 200 and b"MathJax" in mathjax.read(2000)
        done = chromium(url, tmp_path, "--dump-dom", "--virtual-time-budget=15000")
        assert 'class="MathJax' in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]  # typeset by MathJax
        assert "Uncaught" not in done.stderr, done.stderr[-2000:]  # formgrader's script ran through
    finally:
        server.terminate()
        server.wait(timeout=30)


def _serve(command: list[str], folder: Path, tmp: Path, probe: str):
    """A Jupyter server in ``folder`` on a free port, answering ``probe``; yields its base URL and token."""
    port, token = _free_port(), "attn-test-token"
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / command[0]), *command[1:], "--no-browser", f"--port={port}",
         "--ip=127.0.0.1", f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={folder}"],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "JUPYTER_CONFIG_DIR": str(tmp / "jupyter")})
    base = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            urllib.request.urlopen(f"{base}{probe}?token={token}", timeout=10).read()
            return server, base, token
        except OSError:
            if server.poll() is not None:
                pytest.fail(server.stderr.read()[-3000:])
            time.sleep(0.5)
    server.terminate()
    pytest.fail("the Jupyter server did not answer in 2 minutes")


@pytest.mark.system
def test_a_lesson_shows_its_formulas_in_jupyter_with_no_network(tmp_path):
    """`python3 tasks.py lessons` opens Jupyter Notebook, whose MathJax is bundled with it."""
    pytest.importorskip("notebook")
    lessons = Path(shutil.copytree(Path(__file__).resolve().parents[1] / "course" / "lessons", tmp_path / "lessons"))
    server, base, token = _serve(["jupyter-notebook"], lessons, tmp_path, "/api/status")
    try:
        done = chromium(f"{base}/notebooks/02_why_scale_by_sqrt_dk.ipynb?token={token}", tmp_path,
                        "--dump-dom", "--virtual-time-budget=30000")
    finally:
        server.terminate()
        server.wait(timeout=30)
    typeset = done.stdout.count("<mjx-container")
    assert typeset >= 10, f"{typeset} formulas typeset\n" + done.stdout[-1500:] + done.stderr[-1500:]
