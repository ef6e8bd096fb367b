"""The late penalty of an nbgrader course, worked out on the current scores whenever a grade is read.

nbgrader stores a notebook's late penalty when it autogrades (AssignLatePenalties), from the
score the notebook had then. A person's mark added later in formgrader does not move it: under
``penalty_method = "zero"`` a late student marked by hand after grading would keep those marks,
until something autograded again. Here the penalty is the one nbgrader would store if it
autograded again now: the course's LateSubmissionPlugin, asked with the notebook's current score
(automatic and hand-marked points), kept within [0, score] as AssignLatePenalties keeps it.

``penalties`` works it out without writing; ``refresh`` also stores it, so that formgrader and
nbgrader's own commands agree; ``CurrentCsvExport`` is ``nbgrader export``'s CSV plugin with that
refresh first (the course's nbgrader_config.py chooses it), so both exports give the same grade.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nbgrader.plugins import CsvExportPlugin


@dataclass(frozen=True)
class Late:
    """One late submission: how late, its points before the penalty, and the penalty (points)."""

    student: str
    assignment: str
    seconds_late: float
    raw: float
    penalty: float


def course_config(course: Path):
    """The course's nbgrader configuration (nbgrader_config.py, and the local file it loads)."""
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    config.merge(PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config())
    return config


def penalties(gb, config, assignments=None) -> dict:
    """{(student, assignment, notebook): penalty or None} for every submitted notebook of
    ``assignments`` (default: all), as AssignLatePenalties would store it now."""
    from nbgrader.preprocessors import AssignLatePenalties

    step = AssignLatePenalties(config=config)
    step.init_plugin()
    found = {}
    for assignment in gb.assignments:
        if assignments is not None and assignment.name not in assignments:
            continue
        for sub in assignment.submissions:
            late = sub.total_seconds_late
            for nb in sub.notebooks:
                penalty = None
                if late > 0:
                    penalty = step.plugin_inst.late_submission_penalty(sub.student.id, nb.score, late)
                    if penalty is not None:
                        penalty = min(max(float(penalty), 0.0), float(nb.score))
                found[(sub.student.id, assignment.name, nb.name)] = penalty
    return found


def refresh(gb, config, assignments=None) -> int:
    """Store the current penalties in the gradebook; return how many changed."""
    changed = 0
    for (student, assignment, notebook), penalty in penalties(gb, config, assignments).items():
        nb = gb.find_submission_notebook(notebook, assignment, student)
        if nb.late_submission_penalty != penalty:
            nb.late_submission_penalty, changed = penalty, changed + 1
    if changed:
        gb.db.commit()
    return changed


def late(gb, config, assignments=None) -> list[Late]:
    """The late submissions of ``assignments``, with what the course's policy costs each now."""
    cost: dict = {}
    for (student, assignment, _), penalty in penalties(gb, config, assignments).items():
        cost[(student, assignment)] = cost.get((student, assignment), 0.0) + (penalty or 0.0)
    found = []
    for (student, assignment), penalty in sorted(cost.items()):
        sub = gb.find_submission(assignment, student)
        if sub.total_seconds_late > 0:
            found.append(Late(student, assignment, float(sub.total_seconds_late), float(sub.score), penalty))
    return found


class CurrentCsvExport(CsvExportPlugin):
    """``nbgrader export``'s CSV, after the late penalties are worked out on the current scores."""

    def export(self, gradebook) -> None:
        changed = refresh(gradebook, self.config)
        if changed:
            self.log.info("late penalties worked out again on the current scores: %d notebook(s) changed",
                          changed)
        super().export(gradebook)
