"""The grades an nbgrader course gives, read from its gradebook: what ``attn-grade export
--nbgrader-course`` sends to an LMS.

A student's grade for an assignment is the one ``nbgrader export`` computes: the
automatic and the hand-marked points of every notebook, less the late penalty,
never below 0, out of the assignment's points (hand-marked cells included). A
student with no submission gets 0, as there. One difference, on purpose: a
submission with a cell still waiting to be marked by hand has no grade yet
(None), where nbgrader would count that cell as 0 and the student would see a
grade that is about to change. The roster's names come along, for the LMS's
Student column.
"""

from __future__ import annotations

from pathlib import Path


class CourseError(Exception):
    """The course's gradebook cannot be read, or lacks an assignment."""


def grades(course: Path, assignments: list[str]) -> tuple[dict, dict, dict]:
    """({assignment: points possible}, {student: {assignment: grade or None}}, {student: "Last, First"})
    for ``assignments``; a student the roster names no one is left out of the last."""
    try:
        from nbgrader.api import Gradebook, MissingEntry
    except ImportError:
        raise CourseError("--nbgrader-course needs nbgrader, which is not installed "
                          "(pip install nbgrader, or this project's 'course' extra)") from None
    db = Path(course) / "gradebook.db"
    if not db.is_file():
        raise CourseError(f"{course}: no gradebook.db there; give the course folder that "
                          f"'attn-grade grade --nbgrader-course' wrote to")
    points, scores, names = {}, {}, {}
    with Gradebook(f"sqlite:///{db}") as gb:
        for name in assignments:
            try:
                points[name] = float(gb.find_assignment(name).max_score)
            except MissingEntry:
                raise CourseError(f"{name} is not an assignment of {db}; grade it with "
                                  f"'attn-grade grade ... --nbgrader-course {course}' first") from None
        for student in gb.students:
            name = ", ".join(n for n in (student.last_name, student.first_name) if n)
            if name:
                names[student.id] = name
            row = scores.setdefault(student.id, {})
            for name in assignments:
                try:
                    sub = gb.find_submission(name, student.id)
                except MissingEntry:
                    row[name] = 0.0
                    continue
                row[name] = None if sub.needs_manual_grade else \
                    round(max(0.0, float(sub.score) - float(sub.late_submission_penalty or 0.0)), 6)
    return points, scores, names
