"""`attn-grade report OUT`: the roster's names (--roster, OUT/roster.csv, an nbgrader course's), and
with --nbgrader-course the course's grades beside the automatic points. The course is a stand-in
here (nbscores.grades, monkeypatched to the interface); tests/test_report_course.py reads
a real gradebook."""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.exports import coursegrades, nbscores
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent
from support.browser import chromium, framed  # noqa: E402 - tests/support: headless Chromium, or a skip
from test_classreport import Tables  # noqa: E402 - the report's tables, cell by cell

PARTS = tuple(registry.ASSIGNMENTS)  # all three: the widest the course table gets
HOSTILE = "<img src=x onerror=alert(1)>', O\u202eReilly"  # markup, a quote for data-v='...', a right-to-left override
LONG = "Wolfeschlegelsteinhausenbergerdorff" * 8  # no blank to break at


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """ann: every answer right; bob: nothing handed in; cy: a mutant hand_scores."""
    root = tmp_path_factory.mktemp("report-names")
    subs = root / "class"
    for who in ("ann", "bob", "cy"):
        (subs / who).mkdir(parents=True)
    for e in registry.EXERCISES:
        shutil.copy(ROOT / "solutions" / f"{e.slug}.py", subs / "ann" / f"{e.slug}.py")
        shutil.copy(ROOT / "solutions" / f"{e.slug}.py", subs / "cy" / f"{e.slug}.py")
    shutil.copy(ROOT / "tests" / "mutants" / "hand_scores" / "no_scaling.py", subs / "cy" / "hand_scores.py")
    assert main(["grade", str(subs), "--out", str(root / "graded"), "--no-progress", "--jobs", "2"]) == 0
    return root / "graded"


@pytest.fixture
def out(graded, tmp_path):
    return Path(shutil.copytree(graded, tmp_path / "graded"))


def _automatic(out: Path) -> dict:
    """student -> assignment -> the points of gradebook.csv."""
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as f:
        book = list(csv.reader(f))
    slugs = book[0][1:-1]
    return {r[0]: {a: sum(float(v) for s, v in zip(slugs, r[1:-1]) if registry.get(s).assignment == a) for a in PARTS}
            for r in book[1:]}


def _report(out: Path, *extra) -> tuple[str, Tables]:
    assert main(["report", str(out), *extra]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    tables = Tables()
    tables.feed(page)
    return page, tables


def _first_cells(tables, table="students") -> list:
    return sorted(row[0] for row in tables.tables[table][1:])


def _course_rows(tables) -> tuple[list, list, dict]:
    """The course table: its row of assignments, its row of column names, its rows by first cell."""
    groups, head, *body = tables.tables["course-grades"]
    return groups, head, {r[0]: r[1:] for r in body}


def test_without_a_roster_the_students_are_their_ids(out):
    _, tables = _report(out)
    assert _first_cells(tables) == ["ann", "bob", "cy"]


def test_a_roster_file_names_the_students_escaped(out, tmp_path):
    roster = tmp_path / "students.csv"  # nbgrader's `db student import` form, as the term's page uses it
    roster.write_text(f"id,first_name,last_name,email\nann,Ada,Lovelace,ada@example.org\n"
                      f"cy,\"{HOSTILE}\",Hostile,\nnobody,No,Body,\n", encoding="utf-8")
    page, tables = _report(out, "--roster", str(roster))
    assert _first_cells(tables) == ["Hostile, " + HOSTILE + " cy", "Lovelace, Ada ann", "bob"]
    assert "<img src=x" not in page and html.escape("<img src=x onerror=alert(1)>', O") in page
    assert "<bdi>Lovelace, Ada</bdi> <span class=muted>ann</span>" in page
    summaries = re.findall(r"<summary>(.*?)</summary>", page)
    assert any(s.startswith("<bdi>Lovelace, Ada</bdi>") for s in summaries)  # the feedback too


def test_a_roster_in_out_is_read_and_a_name_column_will_do(out):
    (out / "roster.csv").write_text(f"Student ID,Name\nbob,\"Bobby  Tables\nJr\"\ncy,{LONG}\n", encoding="utf-8")
    _, tables = _report(out)
    cells = {c.rsplit(" ", 1)[-1]: c for c in _first_cells(tables)}
    assert cells["ann"] == "ann" and cells["bob"] == "Bobby Tables Jr bob"  # one line, blanks made one
    assert cells["cy"] == LONG[:119] + "… cy"  # a name is cut at 120 characters


def test_a_roster_that_is_no_roster_is_refused_naming_it(out, tmp_path, capsys):
    roster = tmp_path / "grades.csv"
    roster.write_text("student,assignment,score\nann,part1_scores,14\n")
    assert main(["report", str(out), "--roster", str(roster)]) == 2
    err = capsys.readouterr().err
    assert f"attn-grade report: {roster}: its first row should name the columns" in err
    assert not (out / "report.html").exists()


def test_the_copying_section_names_the_students_escaped(out, tmp_path):
    """Possible copying names each student of a pair as the students table does: the roster's name,
    HTML-escaped, with the id beside it; a student no roster names, by the id."""
    roster = tmp_path / "students.csv"
    roster.write_text(f"id,name\nann,\"Lovelace, Ada\"\ncy,\"{HOSTILE}\"\n", encoding="utf-8")
    code = [[["def f(x):\n", True], ["    return x\n", False]], [["def f(y):\n", True], ["    return y\n", False]]]
    (out / "copying.json").write_text(json.dumps([
        {"kind": "shared rare mistake", "students": ["ann", "cy"], "score": 3.2,
         "exercises": [{"exercise": "hand_scores", "group": "hand_scores.0123456789abcdef", "size": 2, "of": 3,
                        "weight": 3.2, "mistake": None, "shown": []}]},
        {"kind": "similar code", "students": ["bob", "cy"], "exercise": "hand_scores", "similarity": 0.9,
         "code": code, "cut": [False, False]}]), encoding="utf-8")
    page, _ = _report(out, "--roster", str(roster))
    section = page[page.index("<h2 id=copying>"):page.index("<h2>Students</h2>")]
    ann = "<bdi>Lovelace, Ada</bdi> <span class=muted>ann</span>"
    cy = f"<bdi>{html.escape(HOSTILE)}</bdi> <span class=muted>cy</span>"
    assert f"<h3>{ann} and {cy}: shared rare mistake (rarity 3.2)</h3>" in section
    assert f"<h3>bob and {cy}: similar hand_scores code (90% matches)</h3>" in section
    assert "<div><b>bob</b><pre class=side>" in section and f"<div><b>{cy}</b><pre class=side>" in section
    assert "<img src=x" not in page and "<span class=muted>bob</span>" not in page  # bob has no name


def test_the_pairs_that_share_a_variant_are_named():
    from graders.classroom.integrity import copying
    from graders.classroom.report.analysis import Class, StudentResults

    klass = Class([StudentResults(s, {"hand_scores": 1.0}, 1.0, [], variants={"hand_scores": 3}) for s in ("ann", "cy")],
                  [registry.get("hand_scores")], [])
    page = copying.section([], klass, {"cy": HOSTILE})
    assert f"hand_scores: 1 pair(s) (ann and <bdi>{html.escape(HOSTILE)}</bdi> <span class=muted>cy</span>)" in page
    assert "<img src=x" not in page


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """cy and dee: the same mutant hand_scores, nothing else: one group of two in Same behaviour."""
    root = tmp_path_factory.mktemp("report-twins")
    for who in ("cy", "dee"):
        (root / "class" / who).mkdir(parents=True)
        shutil.copy(ROOT / "tests" / "mutants" / "hand_scores" / "no_scaling.py", root / "class" / who / "hand_scores.py")
    assert main(["grade", str(root / "class"), "--out", str(root / "graded"), "--no-progress", "--jobs", "2"]) == 0
    return root / "graded"


def test_the_same_behaviour_section_names_the_members_escaped(twins, tmp_path):
    out = Path(shutil.copytree(twins, tmp_path / "graded"))
    (out / "roster.csv").write_text(f"id,name\ncy,\"{HOSTILE}\"\n", encoding="utf-8")
    page, _ = _report(out)
    section = page[page.index("<h2 id=groups>"):page.index("<h2 id=copying>")]
    assert f"<td><bdi>{html.escape(HOSTILE)}</bdi> <span class=muted>cy</span>, dee</td>" in section
    assert "<img src=x" not in page


@pytest.fixture
def course(monkeypatch):
    """A stand-in nbgrader course: nbscores.grades as the gradebook would answer (grades, names, lateness)."""
    asked = []

    def grades(path, assignments):
        asked.append(("grades", Path(path), list(assignments)))
        return ({"part1_scores": 18.0, "part2_saturation": 16.0, "part3_attention": 36.0},
                {"ann": {"part1_scores": 17.5, "part2_saturation": 16.0, "part3_attention": 36.0},
                 "bob": {"part1_scores": 0.0, "part2_saturation": 0.0, "part3_attention": 0.0},
                 "cy": {"part1_scores": None, "part2_saturation": 4.0, "part3_attention": 36.0},
                 "dee": {"part1_scores": 0.0, "part2_saturation": 0.0, "part3_attention": 0.0}},
                {"ann": "Lovelace, Ada", "cy": HOSTILE, "dee": "Dee, Dora"},
                {"cy": {"part2_saturation": {"seconds_late": 7500.0, "penalty": 4.0, "raw": 8.0}},
                 "ann": {"part1_scores": {"seconds_late": 40.0, "penalty": 0.0, "raw": 17.5}}})

    monkeypatch.setattr(nbscores, "grades", grades)
    return asked


def test_the_course_grade_stands_beside_the_automatic_points(out, tmp_path, course):
    page, tables = _report(out, "--nbgrader-course", str(tmp_path / "course"))
    assert course == [("grades", tmp_path / "course", list(PARTS))]  # the course is read once
    auto = _automatic(out)
    groups, header, rows = _course_rows(tables)
    g = lambda x: f"{round(x, 2):g}"  # noqa: E731 - as the report shows points
    assert rows == {
        "Lovelace, Ada ann": [g(auto["ann"]["part1_scores"]), "17.5 late", g(auto["ann"]["part2_saturation"]), "16",
                              g(auto["ann"]["part3_attention"]), "36"],
        "bob": [g(auto["bob"]["part1_scores"]), "0", g(auto["bob"]["part2_saturation"]), "0",
                g(auto["bob"]["part3_attention"]), "0"],
        f"{HOSTILE} cy": [g(auto["cy"]["part1_scores"]), "waiting for a mark", g(auto["cy"]["part2_saturation"]),
                          "4 late", g(auto["cy"]["part3_attention"]), "36"]}
    assert auto["cy"]["part1_scores"] < 14  # the mutant lost automatic points: a real number, not the course's
    assert groups == ["", *PARTS]  # each over its two columns
    auto_max = {a: sum(x.points for x in registry.EXERCISES if x.assignment == a) for a in PARTS}
    assert header == ["student", f"automatic of\xa0{auto_max['part1_scores']:g}", "course grade of\xa018",
                      f"automatic of\xa0{auto_max['part2_saturation']:g}", "course grade of\xa016",
                      f"automatic of\xa0{auto_max['part3_attention']:g}", "course grade of\xa036"]  # "of 14" kept whole
    late = re.search(r"<ul id=late-list>(.*?)</ul>", page).group(1)
    assert [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", late)] == [
        f"{HOSTILE} cy, part2_saturation: late by 2 h 5 min: -4 points under the course's policy",
        "Lovelace, Ada ann, part1_scores: late by 40 s: no points off under the course's policy"]
    assert "title='late by 2 h 5 min: -4 points under the course&#x27;s policy'>late</span>" in page
    assert "1 student(s) of the course have no results in this folder" in page and "<bdi>Dee, Dora</bdi>" in page
    assert _first_cells(tables) == sorted(rows)  # the course's roster names the students table too
    assert "<img src=x" not in page


def test_a_course_that_cannot_be_read_is_named(out, tmp_path, monkeypatch, capsys):
    def grades(path, assignments):
        raise nbscores.CourseError(f"{path}: no gradebook.db there")

    monkeypatch.setattr(nbscores, "grades", grades)
    assert main(["report", str(out), "--nbgrader-course", str(tmp_path)]) == 2
    assert f"attn-grade report: {tmp_path}: no gradebook.db there" in capsys.readouterr().err


@pytest.mark.parametrize("seconds, text", [(40, "40 s"), (59.6, "1 min"), (7500, "2 h 5 min"), (7200, "2 h"),
                                           (3 * 86400 + 7300, "3 d 2 h"), (86400, "1 d")])
def test_how_late_reads_as_a_person_says_it(seconds, text):
    assert coursegrades.how_late(seconds) == text


def test_a_late_note_names_the_cost():
    assert coursegrades.late_note({"seconds_late": 7500, "penalty": 18.0, "raw": 18.0}) == \
        "late by 2 h 5 min: -18 points under the course's policy"
    assert coursegrades.late_note({"seconds_late": 60, "penalty": 1.0, "raw": 3.0}) == \
        "late by 1 min: -1 point under the course's policy"


@pytest.mark.system
def test_names_and_course_grades_fit_a_1280_px_window(out, tmp_path, course):
    """Headless Chromium at 1280 px: no sideways scrolling, of the page or of the course's table, and
    every student cell within its column, the long hostile name included."""
    (out / "roster.csv").write_text(f"id,name\nbob,{LONG}\n", encoding="utf-8")
    _report(out, "--nbgrader-course", str(tmp_path / "course"))
    probe = ("var d=f.contentDocument,r=d.documentElement,t=d.getElementById('course-grades');"
             "document.body.dataset.page=r.scrollWidth-r.clientWidth;"
             "document.body.dataset.course=t.parentNode.scrollWidth-t.parentNode.clientWidth;"
             "document.body.dataset.students=d.getElementById('students').parentNode.scrollWidth"
             "-d.getElementById('students').parentNode.clientWidth;"
             "document.body.dataset.spill=Array.from(d.querySelectorAll('td.who')).filter(function(c){"
             "return c.scrollWidth>c.clientWidth}).length;"
             "document.body.dataset.who=d.querySelectorAll('td.who').length;"
             "var h=d.querySelectorAll('#course-grades thead tr')[1].cells[1];h.click();h.click();"  # part1's, down
             "document.body.dataset.order=Array.from(d.querySelectorAll('#course-grades tbody tr')).map(function(r){"
             "return r.cells[1].textContent}).join('|')")
    body, done = framed(out / "report.html", tmp_path, "width:1280px;height:900px;border:0", probe)
    assert body and 'data-who="6"' in body, done.stdout[-500:] + done.stderr[-1500:]
    for key in ("page", "course", "students", "spill"):
        assert f'data-{key}="0"' in body, body
    assert 'data-order="14|8.67|0"' in body, body  # a column under the assignments' row sorts by itself
    shot = tmp_path / "report.png"
    chromium(out / "report.html", tmp_path, f"--screenshot={shot}", "--window-size=1280,2400", "--hide-scrollbars")
    assert shot.is_file()
    shutil.copy(shot, out / "report-1280.png")  # beside the report, for a person to look at
