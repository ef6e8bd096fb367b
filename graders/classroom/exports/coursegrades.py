"""The class report's *Course grades*: with ``attn-grade report OUT --nbgrader-course COURSE``, each
student's grade in the course beside the automatic points of OUT.

The course's grade is the one ``attn-grade export --nbgrader-course`` sends (nbscores.py's
``grades``): the automatic points and a person's marks (the written proof) in, less the late
penalty under the course's policy, never below 0, out of the assignment's points, hand-marked cells
included. A grade with a cell still to be marked by hand has none yet: it shows as waiting for a
mark, never as 0. A late submission says how late it was and what that cost (from the same
reading). The roster's names come along (roster.py shows them).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from ...grading.report import pts
from . import nbscores
from ..report import roster
from .nbscores import CourseError

__all__ = ["Course", "CourseError", "load", "how_late", "late_note", "section"]


@dataclass
class Course:
    path: Path
    assignments: list  # those of the report's exercises, in teaching order
    points: dict  # assignment -> points possible in the course
    scores: dict  # student -> assignment -> grade, or None while a person's mark is missing
    names: dict  # student -> "Last, First"
    late: dict  # student -> assignment -> {"seconds_late", "penalty", "raw"}


def load(course: Path, assignments: list) -> Course:
    """The course's grades of ``assignments``; CourseError when its gradebook cannot say."""
    try:
        points, scores, names, late = nbscores.grades(course, list(assignments))
    except ImportError as exc:  # nbgrader, which reading the course needs
        raise CourseError(f"--nbgrader-course needs nbgrader, which could not be imported ({exc}): "
                                   f"pip install nbgrader, or this project's 'course' extra") from None
    names = {s: roster.clean(n) for s, n in names.items() if roster.clean(n)}
    return Course(Path(course), list(assignments), points, scores, names, late)


def how_late(seconds: float) -> str:
    """'3 d 2 h', '2 h 5 min', '40 s': how late, for a person."""
    days, rest = divmod(max(0, round(seconds)), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else f"{secs} s"


def late_note(entry: dict) -> str:
    """'late by 2 h 5 min: -18 points under the course's policy' (text, not yet escaped)."""
    penalty = float(entry.get("penalty") or 0.0)
    cost = f"-{pts(penalty)} point{'' if pts(penalty) == '1' else 's'}" if penalty > 0 else "no points off"
    return f"late by {how_late(float(entry['seconds_late']))}: {cost} under the course's policy"


def _grade(course: Course, student: str, assignment: str) -> str:
    """The cell of one course grade."""
    row = course.scores.get(student)
    if row is None:
        return "<td class='n muted' data-v='' title=\"not in the course's gradebook\">–</td>"
    grade = row.get(assignment)
    if grade is None:
        return ("<td class=n data-v=''><span class=wait title='a cell waits to be marked by hand in formgrader: "
                "no grade yet, not 0'>waiting for a mark</span></td>")
    late = course.late.get(student, {}).get(assignment)
    late = f" <span class=late title='{html.escape(late_note(late))}'>late</span>" if late else ""
    return f"<td class=n data-v='{grade!r}'>{pts(grade)}{late}</td>"


def section(klass, course: Course, names: dict) -> str:
    """The report's section: a row per student of OUT, the automatic points and the course's grade of each
    assignment side by side; then the late submissions, and what each cost."""
    e = html.escape
    groups = "".join(f"<th class=group colspan=2>{e(a)}</th>" for a in course.assignments)  # not sorted by
    head = "".join(f"<th class=n>automatic <span class=muted>of&nbsp;{pts(_auto_max(klass, a))}</span></th>"
                   f"<th class=n>course grade <span class=muted>of&nbsp;{pts(course.points[a])}</span></th>"
                   for a in course.assignments)
    rows, late = [], []
    for s in sorted(klass.students, key=lambda s: roster.sort_key(s.name, names).casefold()):
        cells = "".join(f"<td class=n data-v='{_auto(s, klass, a)!r}'>{pts(_auto(s, klass, a))}</td>"
                        f"{_grade(course, s.name, a)}" for a in course.assignments)
        rows.append(f"<tr><td class=who data-v='{e(roster.sort_key(s.name, names))}'>{roster.who(s.name, names)}"
                    f"</td>{cells}</tr>")
        late += [f"<li>{roster.who(s.name, names)}, {e(a)}: {e(late_note(course.late[s.name][a]))}</li>"
                 for a in course.assignments if a in course.late.get(s.name, {})]
    shown = {s.name for s in klass.students}
    absent = sorted(set(course.scores) - shown, key=lambda s: roster.sort_key(s, names).casefold())
    missing = (f"<p class=muted>{len(absent)} student(s) of the course have no results in this folder, so "
               f"the table leaves them out: "
               + ", ".join(roster.who(s, names) for s in absent[:20]) + (" …" if len(absent) > 20 else "") + ".</p>"
               ) if absent else ""
    waiting = sum(1 for s in shown for a in course.assignments if s in course.scores
                  and course.scores[s].get(a) is None)
    return (f"<h2 id=course>Course grades</h2><p class=muted>From the nbgrader course {e(str(course.path))}: "
            f"each assignment's <b>course grade</b>, the one 'attn-grade export --nbgrader-course' sends (the "
            f"automatic points and a person's marks, the written proof's, in; less the late penalty under the "
            f"course's policy; never below 0), beside the <b>automatic</b> points of this folder that the rest "
            f"of this report counts. <span class=wait>waiting for a mark</span>: a cell still to be marked by "
            f"hand in formgrader, so no grade yet ({waiting} in all). <span class=late>late</span>: handed in "
            f"after the due date (<a href='#late'>Handed in late</a>, below).</p>{missing}<div class=wide>"
            f"<table class=sortable id=course-grades><thead><tr><th></th>{groups}</tr><tr><th>student</th>{head}"
            f"</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div><h3 id=late>Handed in late ({len(late)})</h3>"
            + (f"<ul id=late-list>{''.join(late)}</ul>" if late else "<p>None.</p>"))


def _auto(student, klass, assignment: str) -> float:
    return round(sum(student.scores[x.slug] for x in klass.exercises if x.assignment == assignment), 6)


def _auto_max(klass, assignment: str) -> float:
    return sum(x.points for x in klass.exercises if x.assignment == assignment)
