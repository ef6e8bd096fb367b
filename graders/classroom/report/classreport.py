"""``attn-grade report OUT``: how the class did, as one self-contained HTML file.

OUT/report.html holds its plots as embedded PNG images (matplotlib), its
styles and a few lines of script (a sortable table) inline, and every
student's feedback as text: it opens in any browser, from a disk or a mail,
with no server and no network. The figures come from analysis.py; the students
table and their feedback from classstudents.py, by the roster's names where a
roster gives them (roster.py: an nbgrader course's, ``--roster FILE`` or
OUT/roster.csv); with ``--nbgrader-course`` the course's grades beside the
automatic points (coursegrades.py).
"""

from __future__ import annotations

import base64
import html
import io
import sys
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import write_atomic
from ...grading.report import pts
from . import analysis, classstudents, comments, groups, roster
from ..integrity import copying
from ..exports import coursegrades

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.5em 0}
td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f6f6f6}td.n{text-align:right;white-space:nowrap}th.n{text-align:right}td.bars{white-space:nowrap}.bar{background:#c44;height:.7em;display:inline-block}
.na{background:#bbb}pre{background:#f8f8f8;padding:.8em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}img{max-width:100%}
td pre.ex{white-space:pre;overflow-x:auto;max-width:30em;margin:0;padding:.4em}
.pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}pre.side{white-space:pre;overflow-x:auto}mark{background:#ffe08a}td.mk{min-width:16em}
.muted{color:#777}.wide{overflow-x:auto}.wait{background:#ffe08a;padding:0 .3em;border-radius:.2em;font-size:.85em}
td.who{min-width:9em;max-width:18em;overflow-wrap:anywhere}.late{color:#a40;font-size:.85em}
summary{overflow-wrap:anywhere}th.group{text-align:center;cursor:default;border-bottom:1px solid #ddd}
#course-grades th.n{white-space:normal}
"""
SCRIPT = """
window.onerror=function(){document.body.dataset.errors=(+document.body.dataset.errors||0)+1};
document.querySelectorAll('table.sortable').forEach(function(t){
  Array.from(t.tHead.rows[t.tHead.rows.length-1].cells).forEach(function(th,i){th.addEventListener('click',function(){
    var rows=Array.from(t.tBodies[0].rows),up=th.dataset.up!=='1';th.dataset.up=up?'1':'0';
    rows.sort(function(a,b){var x=a.cells[i].dataset.v||a.cells[i].textContent,y=b.cells[i].dataset.v||b.cells[i].textContent;
      var p=parseFloat(x),q=parseFloat(y),c=(isNaN(p)||isNaN(q))?x.localeCompare(y):p-q;return up?c:-c});
    rows.forEach(function(r){t.tBodies[0].appendChild(r)})})})});
document.body.dataset.ready='1';
window.addEventListener('load',function(){document.body.dataset.images=
  Array.from(document.images).filter(function(i){return i.naturalWidth>0}).length});
"""


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return f'<img alt="{html.escape(fig.get_label())}" src="data:image/png;base64,' \
           f'{base64.b64encode(buf.getvalue()).decode()}">'


def plots(klass: analysis.Class) -> list[str]:
    """The distribution of totals, and of each exercise's points, as <img> tags."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    totals = [s.total for s in klass.students]
    fig, ax = plt.subplots(figsize=(7, 3), num="totals")
    ax.hist(totals, bins=min(20, max(5, len(set(totals)))), range=(0, klass.max_total), color="#4a7ab8")
    ax.set_xlabel(f"total points (of {klass.max_total:g})")
    ax.set_ylabel("students")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # students come whole
    ax.set_title("Totals")
    imgs = [_png(fig)]
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.55 * len(klass.exercises)), num="per exercise")
    shares = [[s.scores[e.slug] / e.points for s in klass.students] for e in klass.exercises]
    try:
        ax.boxplot(shares, orientation="horizontal", widths=0.5, showfliers=False)
    except TypeError:  # matplotlib before 3.10
        ax.boxplot(shares, vert=False, widths=0.5, showfliers=False)
    for row, values in enumerate(shares, 1):  # a strip of dots, jittered by rank so it is reproducible
        ys = [row + 0.25 * ((k % 7) - 3) / 3 for k in range(len(values))]
        ax.scatter(values, ys, s=10, alpha=0.5, color="#c44")
    ax.set_yticks(range(1, len(klass.exercises) + 1), [e.slug for e in klass.exercises])
    ax.invert_yaxis()
    ax.set_xlim(-0.05, 1.05)
    ax.set_xlabel("share of the exercise's points")
    ax.set_title("Per exercise")
    imgs.append(_png(fig))
    plt.close(fig)
    return imgs


def _pct(k, n) -> str:
    return f"{100 * k / n:.0f} %" if n else "–"


def render(klass: analysis.Class, comments: dict | None = None, found: list | None = None,
           names: dict | None = None, course: coursegrades.Course | None = None) -> str:
    """The report's page; ``comments``: group key -> the instructor's comment (comments.py); ``found``:
    the evidence of possible copying (copying.py); ``names``: student -> "Last, First" (roster.py);
    ``course``: the nbgrader course's grades (coursegrades.py)."""
    e, names = html.escape, names or {}
    n = len(klass.students)
    mean = sum(s.total for s in klass.students) / n if n else 0.0
    parts = [f"<h1>How the class did</h1><p>{n} student(s); mean total {mean:.2f} of {pts(klass.max_total)} "
             f"({', '.join(x.slug for x in klass.exercises)}).{_course_line(course)}</p>", "<h2>Distribution</h2>",
             *plots(klass)]
    parts.append("<h2>Checks most often lost</h2><p class=muted>Share of students who lost points on each check: "
                 "<b>wrong</b> answers (red) apart from <b>not attempted</b> (grey: the stub untouched, the file "
                 "missing, the function not defined), with the hint the wrong answers got most often. A check that "
                 "judged no answer (the file unreadable, the code hung or crashed) is neither: it counts under "
                 "<a href='#ungraded'>Submissions that could not be graded</a>, and one SymPy could not settle "
                 "under <a href='#waiting'>Waiting for a person</a>; the shares are of the students the check "
                 "graded.</p>")
    rows = []
    for it in analysis.items(klass):
        if not it.lost:
            continue
        hint, k = it.top_hint
        rows.append(f"<tr><td>{e(it.exercise)}</td><td>{e(it.name)}</td><td class=n data-v='{it.lost / it.students}'>"
                    f"{_pct(it.lost, it.students)}</td><td class=n>{_pct(it.wrong, it.students)}</td>"
                    f"<td class=n>{_pct(it.not_attempted, it.students)}</td><td class=bars><span class=bar style='width:"
                    f"{6 * it.wrong / it.students:.2f}em'></span><span class='bar na' style='width:"
                    f"{6 * it.not_attempted / it.students:.2f}em'></span></td>"
                    f"<td>{e(hint) + f' <span class=muted>({_pct(k, it.wrong)} of the wrong)</span>' if hint else ''}"
                    f"</td></tr>")
    parts.append("<div class=wide><table class=sortable id=items><thead><tr><th>exercise</th><th>check</th>"
                 "<th class=n>lost</th><th class=n>wrong</th><th class=n>not attempted</th><th></th>"
                 f"<th>most common hint</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
                 if rows else "<p>No check lost points.</p>")
    known = analysis.mistakes(klass)
    parts.append("<h2>Known mistakes across the class</h2>" + (
        "<div class=wide><table id=mistakes><thead><tr><th>it looks like …</th><th class=n>students</th></tr>"
        "</thead><tbody>" + "".join(f"<tr><td>{e(h)}</td><td class=n>{k} ({_pct(k, n)})</td></tr>"
                                    for h, k, _ in known) + "</tbody></table></div>" if known else "<p>No known mistake was recognised.</p>"))
    errs = analysis.errors(klass)
    parts.append("<h2 id=ungraded>Submissions that could not be graded</h2>" + ("".join(
        f"<h3>{e(cause)} ({len(v)})</h3><ul>"
        + "".join(f"<li>{roster.who(s, names)}, {e(x)}: {e(r)}</li>" for s, x, r in v) + "</ul>"
        for cause, v in errs.items()) if errs else "<p>None.</p>"))
    parts.append(_waiting(klass, names))
    parts.append("<h2>Integrity flags</h2>" + ("<p class=muted>For a person to look at; they changed no score.</p><ul>"
                 + "".join(f"<li>{roster.who(f['student'], names)} {e(f['where'])}: <b>{e(f['kind'])}</b>: "
                           f"{e(f['detail'])}</li>"
                           for f in klass.flags) + "</ul>" if klass.flags else "<p>None.</p>" if klass.flags == []
                 else "<p><b>Not scanned</b>: this folder has no integrity.json, so no integrity scan finished "
                      "here; run attn-grade grade again to scan the submissions.</p>"))
    parts.append(groups.section(klass, comments or {}, names))
    parts.append(copying.section(found or [], klass, names))
    if course is not None:
        parts.append(coursegrades.section(klass, course, names))
    parts.append(classstudents.section(klass, names))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Class report</title>"
            f"<style>{STYLE}</style></head><body data-errors=0>{''.join(parts)}<script>{SCRIPT}</script>"
            f"</body></html>\n")


def _course_line(course) -> str:
    return "" if course is None else (f" Beside them, the course's grades: hand marks in, late penalty off "
                                      f"(<a href='#course'>Course grades</a>).")


def _waiting(klass: analysis.Class, names: dict) -> str:
    """The section on the checks that wait for a person: whose, which, how many points."""
    e = html.escape
    found = analysis.waiting(klass)
    if not found:
        return "<h2 id=waiting>Waiting for a person</h2><p>None: SymPy settled every exact answer.</p>"
    rows = "".join(f"<tr><td>{roster.who(s, names)}</td><td>{e(x)}</td><td>{e(c)}</td><td class=n>{pts(p)}"
                   f"</td></tr>" for s, x, c, p in found)
    total = sum(p for *_, p in found)
    return (f"<h2 id=waiting>Waiting for a person ({len({s for s, *_ in found})} student(s))</h2>"
            f"<p class=muted>Exact answers SymPy could not settle within its time bound: each check scored 0 "
            f"so far, and its {pts(total)} point(s) in all are pending a person's check, not lost. Read the "
            f"answer in the student's feedback (below), then mark it: in formgrader for an nbgrader course (the "
            f"cell needs manual grade), or see the README's 'Undecided answers'. attn-grade export refuses these "
            f"grades until then.</p><div class=wide><table id=waiting-checks><thead><tr><th>student</th>"
            f"<th>exercise</th><th>check</th><th class=n>points pending</th></tr></thead><tbody>{rows}</tbody>"
            f"</table></div>")


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    p = subparsers.add_parser(
        "report", help="write OUT/report.html: how the class did, with plots (instructors)",
        description="Read the folder 'attn-grade grade' wrote (either layout) and write OUT/report.html: the "
                    "distribution of totals and per exercise, the checks most often lost (wrong apart from not "
                    "attempted) with their most common hint, the known mistakes across the class, submissions "
                    "that could not be graded, the integrity flags, and a sortable table of students linked to "
                    "their feedback, by the roster's names where one is given. With --nbgrader-course, the "
                    "course's grades too (hand marks in, late penalty off). One self-contained file: no server, "
                    "no network.")
    p.add_argument("out", type=Path, metavar="OUT", help="the --out folder of 'attn-grade grade'")
    p.add_argument("--assignment", action="append", default=[], choices=registry.ASSIGNMENTS, metavar="NAME",
                   help="report on this assignment's exercises only (repeatable; default: every exercise in the "
                        f"gradebook); one of {', '.join(registry.ASSIGNMENTS)}")
    p.add_argument("--nbgrader-course", type=Path, metavar="DIR",
                   help="the nbgrader course OUT was graded for: show its grades beside the automatic points "
                        "(a person's marks in, less the late penalty, and what lateness cost), and its roster's "
                        "names")
    p.add_argument("--roster", type=Path, metavar="CSV",
                   help="the students' names: a CSV with columns id, last_name, first_name (nbgrader's 'db "
                        "student import' form) or id, name (default: OUT/roster.csv when there is one)")
    p.set_defaults(run=_run)


def _run(parser, args) -> int:
    out = args.out
    if not (out / "gradebook.csv").is_file():
        parser.error(f"{out}: no gradebook.csv there; give the --out folder of 'attn-grade grade'")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("attn-grade report needs matplotlib for its plots: pip install matplotlib (or the project's "
              "'course' extra)", file=sys.stderr)
        return 2
    try:
        klass = analysis.load(out, tuple(args.assignment))
    except analysis.NotInGradebook as exc:
        parser.error(str(exc))
    except (OSError, ValueError, KeyError, IndexError) as exc:
        print(f"attn-grade report: {out} could not be read ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    try:
        notes = comments.read(out)
    except comments.CommentError as exc:
        print(f"attn-grade report: {exc}; the report shows no comment", file=sys.stderr)
        notes = {}
    try:
        names, course = roster.of_out(out, args.roster), None
        if args.nbgrader_course:
            course = coursegrades.load(args.nbgrader_course, [a for a in registry.ASSIGNMENTS if any(
                e.assignment == a for e in klass.exercises)])
            names.update(course.names)  # the course's roster first
    except (roster.RosterError, coursegrades.CourseError) as exc:
        print(f"attn-grade report: {exc}", file=sys.stderr)
        return 2
    found = copying.of_exercises(copying.evidence(out), [e.slug for e in klass.exercises])
    write_atomic(out / "report.html", render(klass, notes, found, names, course))
    named = sum(1 for s in klass.students if s.name in names)
    print(f"wrote {out / 'report.html'} ({len(klass.students)} students"
          f"{f', {named} named by the roster' if named else ''}{', with the course grades' if course else ''}); "
          f"open it in a browser")
    return 0
