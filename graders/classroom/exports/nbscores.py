"""The grades an nbgrader course gives, read from its gradebook: what ``attn-grade export
--nbgrader-course`` sends to an LMS.

A student's grade for an assignment is the one ``nbgrader export`` computes: the
automatic and the hand-marked points of every notebook, less the late penalty,
never below 0, out of the assignment's points (hand-marked cells included). A
student with no submission gets 0, as there. The late penalty is the current one
(nblate.py): worked out on the score as it is now, hand marks included, as
nbgrader would if it autograded again, not the one stored when it last did. One difference, on purpose: a
submission with a cell still waiting to be marked by hand has no grade yet
(None), where nbgrader would count that cell as 0 and the student would see a
grade that is about to change. The roster's names come along, for the LMS's
Student column, and the late submissions, for the class report (coursegrades.py).
"""

from __future__ import annotations

from pathlib import Path


class CourseError(Exception):
    """The course's gradebook cannot be read, or lacks an assignment."""


def grades(course: Path, assignments: list[str]) -> tuple[dict, dict, dict, dict]:
    """({assignment: points possible}, {student: {assignment: grade or None}}, {student: "Last, First"},
    {student: {assignment: {"seconds_late", "raw", "penalty"}}}) for ``assignments``, from one reading of
    the gradebook and of the course's settings. A student the roster names no one is left out of the
    third; the last holds the late submissions, what the course's policy costs each now (in points)."""
    book = open_gradebook(course)
    config = nbgrader_config(course)
    from nbgrader.api import MissingEntry

    from . import nblate

    points, scores, names, late = {}, {}, {}, {}
    with book as gb:
        for name in assignments:
            try:
                points[name] = float(gb.find_assignment(name).max_score)
            except MissingEntry:
                raise CourseError(f"{name} is not an assignment of {course}/gradebook.db; grade it with "
                                  f"'attn-grade grade ... --nbgrader-course {course}' first") from None
        found = nblate.priced(gb, config, assignments)
        handed_in = {(one.submission.student.id, one.assignment): one for one in found}
        for student in gb.students:
            name = ", ".join(n for n in (student.last_name, student.first_name) if n)
            if name:
                names[student.id] = name
            row = scores.setdefault(student.id, {})
            for name in assignments:
                one = handed_in.get((student.id, name))
                if one is None:  # nothing handed in
                    row[name] = 0.0
                    continue
                sub = one.submission
                row[name] = None if sub.needs_manual_grade else round(max(0.0, float(sub.score) - one.cost), 6)
        for e in nblate.late(found):
            late.setdefault(e.student, {})[e.assignment] = {"seconds_late": e.seconds_late, "raw": e.raw,
                                                            "penalty": e.penalty}
    return points, scores, names, late


def open_gradebook(course: Path):
    try:
        from nbgrader.api import Gradebook
    except ImportError:
        raise CourseError("--nbgrader-course needs nbgrader, which is not installed "
                          "(pip install nbgrader, or this project's 'course' extra)") from None
    db = Path(course) / "gradebook.db"
    if not db.is_file():
        raise CourseError(f"{course}: no gradebook.db there; give the course folder that "
                          f"'attn-grade grade --nbgrader-course' wrote to")
    return Gradebook(f"sqlite:///{db}")


def nbgrader_config(course: Path):
    """The course's nbgrader settings (its late policy); a course without them is named."""
    from .nblate import course_config

    if not (Path(course) / "nbgrader_config.py").is_file():
        raise CourseError(f"{course}: no nbgrader_config.py there (not an nbgrader course)")
    try:
        return course_config(Path(course))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the course's own file: named, never a traceback
        raise CourseError(f"{course}/nbgrader_config.py could not be read: {exc}") from None
