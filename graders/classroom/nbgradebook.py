"""Put ``attn-grade grade``'s scores into an nbgrader course, as if autograded there.

For each student and assignment this runs nbgrader's own Autograde converter
with one change: its ``Execute`` step (a kernel running the student's notebook
with the tests) is replaced by :class:`FillFromResults`, which writes our
sandboxed results into the test cells as their output: the feedback text on
stdout and the points as the cell's value, a float, nbgrader's partial credit.
Everything else is nbgrader's: the student and the submission (with its
timestamp) are created in the gradebook, locked cells are restored from the
source, outputs are cleared, autograded/<student>/<assignment>/*.ipynb is
written, SaveAutoGrades stores the auto scores, late penalties apply. So
formgrader, ``nbgrader generate_feedback`` and ``nbgrader export`` work as after
``nbgrader autograde``. The scores are then checked against our results, and
set from them where nbgrader could not write a notebook (one that is not JSON).

nbgrader is needed on this path only; it is imported here, never elsewhere.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from .. import registry
from ..grading.outfiles import results_path, student_id


class GradebookError(Exception):
    """The course cannot take our scores (no nbgrader, no config, assignment not in the gradebook)."""


def _nbgrader():
    try:
        import nbgrader  # noqa: F401
        from nbconvert.preprocessors import Preprocessor
    except ImportError:
        raise GradebookError("--nbgrader-course needs nbgrader, which is not installed "
                             "(pip install nbgrader, or this project's 'course' extra)") from None
    return Preprocessor


def split_points(results: dict) -> dict:
    """slug -> {"public": points, "hidden": points, "text": {"public": ..., "hidden": ...}} from results.json."""
    from ..grading.report import render_text
    from ..grading.results import from_gradescope

    per = {}
    for r in from_gradescope(results):
        for vis in ("public", "hidden"):
            part = type(r)(r.exercise, r.title, [c for c in r.checks if c.visibility == vis], r.problem, r.missing)
            per.setdefault(r.exercise, {"text": {}})[vis] = part.points
            per[r.exercise]["text"][vis] = render_text([part], totals=False) if part.checks else ""
    return per


def _fill_class():
    Preprocessor = _nbgrader()
    from traitlets import Bool, Unicode

    class FillFromResults(Preprocessor):
        """Stand-in for nbgrader's Execute: the test cells' output from OUT/students/<student>/results.json."""

        out = Unicode("", help="attn-grade's OUT folder").tag(config=True)
        enabled = Bool(True)  # nbconvert's preprocessors are off unless told otherwise

        def preprocess(self, nb, resources):
            info = resources["nbgrader"]
            data = json.loads(results_path(Path(self.out), student_id(info["student"])).read_text(encoding="utf-8"))
            self._per, self._count = split_points(data), 0
            return super().preprocess(nb, resources)

        def preprocess_cell(self, cell, resources, index):
            gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
            slug, _, part = gid.rpartition("-")
            if cell.cell_type != "code" or part not in ("public", "hidden") or slug not in self._per:
                return cell, resources
            self._count += 1
            from nbformat.v4 import new_output

            text = self._per[slug]["text"][part]
            cell.outputs = [new_output("stream", name="stdout", text=text + "\n")] if text else []
            cell.outputs.append(new_output("execute_result", execution_count=self._count,
                                           data={"text/plain": repr(float(self._per[slug][part]))}))
            cell.execution_count = self._count
            return cell, resources

    return FillFromResults


def _config(course: Path, submitted: Path, out: Path):
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    cfg_file = course / "nbgrader_config.py"
    if not cfg_file.is_file():
        raise GradebookError(f"--nbgrader-course {course}: no nbgrader_config.py there (not an nbgrader course)")
    config = Config()
    config.merge(PyFileConfigLoader(cfg_file.name, path=str(course)).load_config())
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.submitted_directory = str(submitted)  # absolute: os.path.join keeps it
    fill = _fill_class()
    config.FillFromResults.out = str(out)
    steps = config.Autograde.get("autograde_preprocessors") or \
        Autograde.class_traits()["autograde_preprocessors"].default()
    config.Autograde.autograde_preprocessors = [fill if step is Execute else step for step in steps]
    return config, fill


def preflight(course: Path, submitted: Path, out: Path):
    """Check before grading that the course can take the scores; return its config."""
    from .nbsubmit import detect

    if not detect(submitted):
        raise GradebookError(f"--nbgrader-course needs nbgrader's layout, SUBMISSIONS/<student>/<assignment>/"
                             f"<slug>.ipynb, and {submitted} has no such notebooks")
    _nbgrader()
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.coursedir import CourseDirectory

    config, _ = _config(course, submitted, out)
    coursedir = CourseDirectory(config=config)
    db = coursedir.db_url
    if db.startswith("sqlite:///") and not Path(db[len("sqlite:///"):]).is_file():
        raise GradebookError(f"the course has no gradebook yet ({db}); run 'nbgrader generate_assignment' "
                             f"for each assignment in {course} first")
    wanted = sorted({p.name for p in submitted.glob("*/*") if p.name in registry.ASSIGNMENTS})
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        for name in wanted:
            try:
                gb.find_assignment(name)
            except MissingEntry:
                raise GradebookError(f"assignment {name!r} is not in the gradebook {coursedir.db_url}; run "
                                     f"'nbgrader generate_assignment {name}' in {course} first") from None
    return config


def write(config, students, out: Path, progress: bool = True) -> dict:
    """Autograde every (student, assignment) our way; return {"written": n, "problems": [...]}."""

    with warnings.catch_warnings():  # SQLAlchemy warns about nbgrader's own session use
        warnings.simplefilter("ignore")
        return _write(config, students, out, progress)


def _write(config, students, out, progress):
    from nbgrader.api import Gradebook
    from nbgrader.converters import Autograde
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import capture_log
    from tqdm import tqdm

    submitted = Path(config.CourseDirectory.submitted_directory)
    pairs = [(s, a) for s in students for a in registry.ASSIGNMENTS if (submitted / s / a).is_dir()]
    problems, fixed = [], 0
    for student, assignment in tqdm(pairs, unit="notebook set", desc="gradebook", disable=not progress):
        coursedir = CourseDirectory(config=config, student_id=student, assignment_id=assignment)
        app = Autograde(coursedir=coursedir, config=config)
        app.force, app.create_student = True, True
        outcome = capture_log(app)
        if not outcome["success"]:
            lines = [ln for ln in (outcome.get("log") or "").splitlines() if ln.startswith("[ERROR]")]
            problems.append(f"{student}/{assignment}: nbgrader wrote no autograded notebooks "
                            f"({lines[0][8:] if lines else 'see nbgrader autograde'}); scores set directly")
        data = json.loads(results_path(out, student_id(student)).read_text(encoding="utf-8"))
        fixed += _set_scores(Gradebook, coursedir, student, assignment, split_points(data))
    if fixed:
        problems.append(f"{fixed} score(s) in the gradebook differed from our results and were set from them")
    return {"written": len(pairs), "problems": problems}


def _set_scores(Gradebook, coursedir, student, assignment, per) -> int:
    """Make the gradebook's auto scores equal ours; return how many had to change."""
    from nbgrader.api import MissingEntry

    changed = 0
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        gb.update_or_create_student(student)
        try:
            gb.find_submission(assignment, student)
        except MissingEntry:
            gb.add_submission(assignment, student)
        for ex in registry.of_assignment(assignment):
            for part in ("public", "hidden"):
                try:
                    grade = gb.find_grade(f"{ex.slug}-{part}", ex.slug, assignment, student)
                except MissingEntry:
                    continue
                want = float(per.get(ex.slug, {}).get(part, 0.0))
                if grade.auto_score is None or abs(float(grade.auto_score) - want) > 1e-9:
                    grade.auto_score = want
                    grade.needs_manual_grade = grade.manual_score is not None
                    changed += 1
        gb.db.commit()
    return changed
