"""`attn-grade report OUT`: the class report, checked against the class it was made from and
rendered in headless Chromium (Debian's chromium package; .ci/run installs it)."""

from __future__ import annotations

import base64
import csv
import html
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from graders import registry
from graders.cli import main
from graders.grading.report import pts

ROOT = Path(__file__).resolve().parent.parent
from support.browser import chromium, framed  # noqa: E402 - tests/support: headless Chromium, or a skip
from support.make_class import make_class  # noqa: E402 - tests/support, shared with bench/

STUDENTS = 12


class Tables(HTMLParser):
    """The text of every cell of every table, by table id."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.row, self.cell, self.images = {}, None, None, None, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("id", ""), [])
        elif tag == "tr" and self.table is not None:
            self.row = []
            self.table.append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "img":
            self.images.append(attrs.get("src", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    make_class(root / "class", STUDENTS, seed=11)
    out = root / "graded"
    assert main(["grade", str(root / "class"), "--out", str(out), "--no-progress", "--jobs", "2"]) == 0
    assert main(["report", str(out)]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    tables = Tables()
    tables.feed(page)
    return root / "class", out, page, tables


def test_the_students_table_is_the_gradebook(report):
    _, out, page, tables = report
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as f:
        book = list(csv.reader(f))
    shown = [book[0]] + [[r[0], *(f"{round(float(v), 2):g}" for v in r[1:])] for r in book[1:]]
    assert tables.tables["students"] == shown  # rounded to two decimals, as every report shows scores
    totals = [float(r[-1]) for r in book[1:]]
    assert f"mean total {sum(totals) / len(totals):.2f} of {pts(sum(e.points for e in registry.EXERCISES))}" in page


def test_each_students_feedback_fits_the_page(report):
    """Unwrapped, an array's rows stood hundreds of columns in and the diagnosis after it was off the page."""
    _, _, page, _ = report
    blocks = re.findall(r"<pre>(.*?)</pre>", page, re.S)
    assert len(blocks) == STUDENTS and "It looks like" in "".join(blocks)
    assert max(len(line) for b in blocks for line in html.unescape(b).splitlines()) <= 77
    assert "white-space:pre-wrap" in page  # and in a window narrower than that, the browser wraps it


def test_not_attempted_is_counted_apart_from_wrong(report):
    subs, _, _, tables = report
    rows = tables.tables["items"][1:]
    assert rows, "no check was lost in a class with stubs and mutants"
    for slug in registry.BY_SLUG:
        stub = (ROOT / "exercises" / f"{slug}.py").read_text()
        idle = sum(1 for s in subs.iterdir()
                   if not (s / f"{slug}.py").exists() or (s / f"{slug}.py").read_text() == stub)
        for exercise, _, lost, wrong, not_attempted, *_ in rows:
            if exercise == slug:
                assert not_attempted == f"{100 * idle / STUDENTS:.0f} %", (slug, idle)
                assert int(lost[:-2]) >= int(wrong[:-2]) and int(lost[:-2]) >= int(not_attempted[:-2])
    shares = [int(r[2][:-2]) for r in rows]
    assert shares == sorted(shares, reverse=True)  # most often lost first


def test_mutants_mistakes_are_ranked_and_named(report):
    _, _, _, tables = report
    mistakes = tables.tables.get("mistakes", [])[1:]
    counts = [int(r[1].split()[0]) for r in mistakes]
    assert mistakes and counts == sorted(counts, reverse=True)


def test_the_plots_are_embedded_pngs(report):
    _, _, page, tables = report
    assert len(tables.images) == 2
    for src in tables.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "the report must need no network"


def test_it_renders_in_headless_chromium_without_console_errors(report, tmp_path):
    _, out, _, _ = report
    done = chromium(out / "report.html", tmp_path, "--dump-dom", "--virtual-time-budget=5000")
    body = re.search(r"<body[^>]*>", done.stdout)
    assert body, done.stderr[-2000:]
    assert 'data-ready="1"' in body.group() and 'data-errors="0"' in body.group()
    assert 'data-images="2"' in body.group()  # both plots decoded
    assert "Uncaught" not in done.stderr and ":ERROR:CONSOLE" not in done.stderr


def test_a_script_error_would_be_seen(tmp_path):
    """The check above can fail: a page whose script throws is caught by the same means."""
    page = tmp_path / "broken.html"
    page.write_text("<!doctype html><body data-errors=0><script>window.onerror=function(){document.body.dataset"
                    ".errors=1};</script><script>nope();</script></body>")
    done = chromium(page, tmp_path, "--dump-dom")
    assert 'data-errors="1"' in done.stdout


def test_a_narrow_window_scrolls_tables_not_the_page(report, tmp_path):
    """At 800 px the wide tables scroll inside their own box; the page never scrolls sideways."""
    _, out, _, _ = report
    body, done = framed(out / "report.html", tmp_path, "width:800px;height:600px;border:0",
                        "var r=f.contentDocument.documentElement;"
                        "document.body.dataset.overflow=r.scrollWidth-r.clientWidth;document.body.dataset.tables="
                        "f.contentDocument.querySelectorAll('table').length")
    tables = (out / "report.html").read_text().count("<table")  # the page was drawn whole: all its tables
    assert tables >= 3 and body and f'data-tables="{tables}"' in body, done.stdout[-500:] + done.stderr[-1500:]
    assert 'data-overflow="0"' in body, body


def test_a_screenshot_is_not_blank(report, tmp_path):
    import matplotlib.image

    _, out, _, _ = report
    shot = tmp_path / "report.png"
    done = chromium(out / "report.html", tmp_path, f"--screenshot={shot}", "--window-size=1200,1600",
                     "--hide-scrollbars")
    assert shot.is_file(), done.stderr[-2000:]
    pixels = matplotlib.image.imread(shot)[..., :3]
    ink = (pixels.min(axis=2) < 0.9).mean()  # share of pixels that are not (nearly) white
    blue = ((pixels[..., 2] > 0.6) & (pixels[..., 0] < 0.45)).mean()  # the histogram's bars
    assert ink > 0.03 and blue > 0.002, (ink, blue)
    shutil.copy(shot, out / "report.png")  # kept beside the report for a person to look at


def test_a_folder_that_is_not_graded_output_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["report", str(tmp_path)])
    assert info.value.code == 2 and "no gradebook.csv" in capsys.readouterr().err
