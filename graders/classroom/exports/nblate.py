"""The late penalty of an nbgrader course, worked out on the current scores whenever a grade is read.

nbgrader stores a notebook's late penalty when it autogrades (AssignLatePenalties), from the
score the notebook had then. A person's mark added later in formgrader does not move it: under
``penalty_method = "zero"`` a late student marked by hand after grading would keep those marks,
until something autograded again. Here the penalty is the one nbgrader would store if it
autograded again now: the course's LateSubmissionPlugin, asked with the notebook's current score
(automatic and hand-marked points), kept within [0, score] as AssignLatePenalties keeps it.

``priced`` works it out without writing, in one pass over the gradebook (``late`` reads the late
submissions off it); ``refresh`` also stores it, so that formgrader and nbgrader's own commands
agree; ``CurrentCsvExport`` is ``nbgrader export``'s CSV plugin with that refresh first (the
course's nbgrader_config.py chooses it), so both exports give the same grade. ``course_config``
reads a course's configuration, for here and for nbgradebook.py.
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


@dataclass(frozen=True)
class Priced:
    """One submission with each notebook's penalty now: {notebook row: penalty or None}."""

    assignment: str
    submission: object  # nbgrader.api.SubmittedAssignment
    penalties: dict

    @property
    def cost(self) -> float:
        """The points the submission loses now, all its notebooks together."""
        return sum((penalty or 0.0 for penalty in self.penalties.values()), 0.0)


def course_config(course: Path):
    """The course's nbgrader configuration (nbgrader_config.py, and the local file it loads)."""
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    config.merge(PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config())
    return config


def priced(gb, config, assignments=None) -> list[Priced]:
    """Every submission of ``assignments`` (default: all), each notebook's penalty as AssignLatePenalties
    would store it now: the one pass over the gradebook that ``refresh``, ``late`` and nbscores.py share."""
    from nbgrader.preprocessors import AssignLatePenalties

    step = AssignLatePenalties(config=config)
    step.init_plugin()
    found = []
    for assignment in gb.assignments:
        if assignments is not None and assignment.name not in assignments:
            continue
        for sub in assignment.submissions:
            seconds = sub.total_seconds_late
            penalties = {}
            for nb in sub.notebooks:
                penalty = None
                if seconds > 0:
                    penalty = step.plugin_inst.late_submission_penalty(sub.student.id, nb.score, seconds)
                    if penalty is not None:
                        penalty = min(max(float(penalty), 0.0), float(nb.score))
                penalties[nb] = penalty
            found.append(Priced(assignment.name, sub, penalties))
    return found


def refresh(gb, config, assignments=None) -> int:
    """Store the current penalties in the gradebook; return how many changed."""
    changed = 0
    for one in priced(gb, config, assignments):
        for nb, penalty in one.penalties.items():
            if nb.late_submission_penalty != penalty:
                nb.late_submission_penalty, changed = penalty, changed + 1
    if changed:
        gb.db.commit()
    return changed


def late(found: list[Priced]) -> list[Late]:
    """The late submissions among ``found`` (``priced``), with what the course's policy costs each now."""
    return sorted((Late(one.submission.student.id, one.assignment, float(one.submission.total_seconds_late),
                        float(one.submission.score), one.cost)
                   for one in found if one.submission.total_seconds_late > 0),
                  key=lambda e: (e.student, e.assignment))


class CurrentCsvExport(CsvExportPlugin):
    """``nbgrader export``'s CSV, after the late penalties are worked out on the current scores."""

    def export(self, gradebook) -> None:
        changed = refresh(gradebook, self.config)
        if changed:
            self.log.info("late penalties worked out again on the current scores: %d notebook(s) changed",
                          changed)
        super().export(gradebook)
