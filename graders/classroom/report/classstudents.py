"""The class report's *Students* table and *Feedback*: a row per student, by the roster's name
where one is known (roster.py), with each exercise's points and the total, and a name that opens
that student's feedback, as text. classreport.py puts it on the page.
"""

from __future__ import annotations

import html

from ...terminal.wrap import PAGE_WIDTH
from ...grading.report import pts, render_text
from ...grading.results import from_gradescope, waiting_in
from . import analysis, roster


def _pending_mark(student, slug: str) -> str:
    """" needs a person" after a score whose exercise has a check waiting for one, else ""."""
    found = [p for x, _, p in waiting_in({"tests": student.tests}) if x == slug]
    return f" <span class=wait title='{pts(sum(found))} point(s) pending a person&#39;s check'>needs a person</span>" \
        if found else ""


def _variant(student, slug: str) -> str:
    """" v39" after a score graded on the student's own numbers (variant 39), else ""."""
    v = student.variants.get(slug)
    return f" <span class=muted title='graded on variant {v}'>v{v}</span>" if v else ""


def section(klass: analysis.Class, names: dict | None = None) -> str:
    """The table of students and their feedback; ``names``: student -> "Last, First", where a roster says."""
    e, names = html.escape, names or {}
    head = "".join(f"<th class=n>{e(x.slug).replace('_', '_<wbr>')}</th>" for x in klass.exercises)  # may wrap at _
    varied = any(s.variants for s in klass.students)  # graded with variants: each score says on which
    rows, pages = [], []
    for i, s in enumerate(klass.students):
        cells = "".join(f"<td class=n data-v='{s.scores[x.slug]!r}'>{pts(s.scores[x.slug])}{_variant(s, x.slug)}"
                        f"{_pending_mark(s, x.slug)}</td>" for x in klass.exercises)
        who = roster.who(s.name, names)
        rows.append(f"<tr><td class=who data-v='{e(roster.sort_key(s.name, names))}'><a href='#fb{i}'>{who}</a>"
                    f"</td>{cells}<td class=n data-v='{s.total!r}'>{pts(s.total)}</td></tr>")
        text = render_text(from_gradescope({"tests": s.tests, "extra_data": {"variants": s.variants}}), color=False,
                           width=PAGE_WIDTH)
        found = waiting_in({"tests": s.tests})
        waits = f" ({pts(sum(p for *_, p in found))} pending a person's check)" if found else ""
        pages.append(f"<details id=fb{i}><summary>{who}: {pts(s.total)}/{pts(klass.max_total)}{waits}</summary>"
                     f"<pre>{e(text)}</pre></details>")
    key = " A score on a student's own numbers says which (<span class=muted>v39</span>: variant 39)." if varied else ""
    if analysis.waiting(klass):
        key += (" <span class=wait>needs a person</span>: a check of that exercise waits for a person's check "
                "(<a href='#waiting'>Waiting for a person</a>).")
    if names:
        key += " A name is the roster's; the student's id follows it, in grey."
    return (f"<h2>Students</h2><p class=muted>Click a heading to sort; a name opens that student's feedback.{key}"
            f"</p><div class=wide><table class=sortable id=students><thead><tr><th>student</th>{head}"
            f"<th class=n>total</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
            f"<h2>Feedback</h2>{''.join(pages)}")
