"""Put ``attn-grade grade``'s scores into an nbgrader course, as if autograded there.

For each student and assignment that needs it this runs nbgrader's own
Autograde converter with one change: its Execute step (a kernel running the
student's notebook with the tests) is replaced by our sandboxed results
(nbfill.py). Everything else is nbgrader's: the student and the submission
(with its timestamp) are created in the gradebook, locked cells are restored
from the source, autograded/<student>/<assignment>/*.ipynb is written,
SaveAutoGrades stores the auto scores, the course's late policy applies. So
formgrader, ``nbgrader generate_feedback`` and ``nbgrader export`` work as
after ``nbgrader autograde``. With care:

* only what changed is written: a submission whose student was graded again,
  whose gradebook scores differ from ours, or that has no autograded copy yet;
* each gradebook score that differs from ours (after a run of nbgrader's own
  autograde, say) is reported, before -> after, before anything is written;
* a person's work stays: manual scores and comments are nbgrader's to keep,
  and "needs manual grade" is never turned back on for a cell a person graded,
  unless its answer changed since (then the mark stays, flagged for review);
* a test cell with a check SymPy could not settle (undecided: grading/results.py)
  is set "needs manual grade", so formgrader lists it for a person, and
  ``attn-grade export --nbgrader-course`` refuses the grade until a person has
  given that cell its score (which replaces the cell's automatic points);
* a notebook we could not read, or one not handed in, gets a stand-in page
  saying why, so the student's other notebooks are autograded and reviewable.

nbgrader is needed on this path only; it is imported here, never elsewhere.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import results_path, student_id
from . import nbmanual

STAGING = ".nbgrader"  # OUT/.nbgrader/submitted/: what nbgrader's converter reads (nbfill.stage)


class GradebookError(Exception):
    """The course cannot take our scores (no nbgrader, no config, assignment not in the gradebook)."""


def _nbgrader():
    try:
        import nbgrader  # noqa: F401
        import nbconvert  # noqa: F401
    except ImportError:
        raise GradebookError("--nbgrader-course needs nbgrader, which is not installed "
                             "(pip install nbgrader, or this project's 'course' extra)") from None


def _config(course: Path, submitted: Path, out: Path):
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    from .nbfill import fill_class
    from .nbguard import RefuseUnhardened
    from ..exports.nblate import course_config

    if not (course / "nbgrader_config.py").is_file():
        raise GradebookError(f"--nbgrader-course {course}: no nbgrader_config.py there (not an nbgrader course)")
    config = course_config(course)
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.submitted_directory = str(submitted)  # absolute: os.path.join keeps it
    fill = fill_class()
    config.FillFromResults.out = str(out)
    steps = config.Autograde.get("autograde_preprocessors") or \
        Autograde.class_traits()["autograde_preprocessors"].default()
    config.Autograde.autograde_preprocessors = [fill if step in (Execute, RefuseUnhardened) else step
                                                for step in steps]
    return config


def preflight(course: Path, submitted: Path, out: Path):
    """Check before grading that the course can take the scores; return its config (reading the
    staged copies in OUT/.nbgrader/submitted, see nbfill.stage)."""
    from .nbsubmit import detect

    if not detect(submitted):
        raise GradebookError(f"--nbgrader-course needs nbgrader's layout, SUBMISSIONS/<student>/<assignment>/"
                             f"<slug>.ipynb, and {submitted} has no such notebooks")
    _nbgrader()
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.coursedir import CourseDirectory

    config = _config(course, out / STAGING / "submitted", out)
    config.AttnGrade.submitted = str(submitted)  # what was handed in (staged copies are graded)
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


def write(config, students, out: Path, progress: bool = True, assignments=None, changed=None, say=print) -> dict:
    """Autograde our way each (student, assignment) that needs it; return
    {"written": n, "kept": n, "differences": [...], "problems": [...], "unwritten": {student ids}}: those
    whose autograded notebooks nbgrader could not write (their scores were still set).
    ``assignments``: only these (default: every assignment handed in); ``changed``: the students
    (ids) graded again in this run (default: all of them)."""
    with warnings.catch_warnings():  # SQLAlchemy warns about nbgrader's own session use
        warnings.simplefilter("ignore")
        return _write(config, students, Path(out), progress, assignments or registry.ASSIGNMENTS, changed, say)


def _write(config, students, out, progress, assignments, changed, say):
    from nbgrader.coursedir import CourseDirectory
    from tqdm import tqdm

    from .nbfill import split_points

    submitted = Path(config.AttnGrade.submitted)
    course = CourseDirectory(config=config)
    pairs = [(s, a) for s in students for a in assignments if (submitted / s / a).is_dir()]
    ours = {s: split_points(_results(out, s)) for s in {s for s, _ in pairs}}
    todo, differences = [], []
    for student, assignment in pairs:
        theirs = _book_scores(course, student, assignment)
        diff = _differences(student, assignment, ours[student], theirs)
        differences += diff
        fresh = (Path(course.root) / course.autograded_directory / student / assignment).is_dir()
        if diff or not fresh or theirs is None or changed is None or student_id(student) in changed:
            todo.append((student, assignment))
    if differences:
        say(f"nbgrader gradebook: {len(differences)} score(s) differ from the hardened grades and will be "
            f"replaced:")
        for line in differences:
            say("  " + line)
    problems, unwritten = [], set()
    quiet = not progress or not sys.stderr.isatty()
    for student, assignment in tqdm(todo, unit="submission", desc="gradebook", disable=quiet):
        found, wrote = _autograde(config, submitted, out, student, assignment, ours[student])
        problems += found
        if not wrote:
            unwritten.add(student_id(student))
    for student, assignment in sorted(set(pairs) - set(todo)):  # kept, but the late policy may have changed
        coursedir = CourseDirectory(config=config, student_id=student, assignment_id=assignment)
        nbmanual.ask_a_person(coursedir, student, assignment, ours[student])
        _late_penalties(coursedir, student, assignment)
    return {"written": len(todo), "kept": len(pairs) - len(todo), "differences": differences, "problems": problems,
            "unwritten": unwritten}


def _results(out: Path, student: str) -> dict:
    import json

    return json.loads(results_path(out, student_id(student)).read_text(encoding="utf-8"))


def _book_scores(coursedir, student, assignment):
    """notebook -> {grade id: auto score} in the gradebook now, or None if it has no such submission."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            return None
        return {nb.name: {g.name: g.auto_score for g in nb.grades} for nb in submission.notebooks}


def _differences(student, assignment, per, theirs) -> list:
    """Lines "student assignment/notebook: before -> after" for notebooks whose auto scores differ from ours."""
    if theirs is None:
        return []
    lines = []
    for ex in registry.of_assignment(assignment):
        grades = theirs.get(ex.slug, {})
        before = [grades.get(f"{ex.slug}-{part}") for part in ("public", "hidden")]
        if all(b is None for b in before):
            continue
        after = sum(float(per.get(ex.slug, {}).get(part, 0.0)) for part in ("public", "hidden"))
        was = sum(float(b or 0.0) for b in before)
        if abs(was - after) > 1e-9:
            lines.append(f"{student_id(student)} {assignment}/{ex.slug}: {was:g} -> {after:g}")
    return lines


def _autograde(config, submitted, out, student, assignment, per) -> tuple[list, bool]:
    """nbgrader's Autograde of one submission, from our results: the problems met, in words, and
    whether nbgrader wrote its autograded notebooks (the feedback a student gets is made from them)."""
    from nbgrader.converters import Autograde
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import capture_log

    from .nbfill import stage

    coursedir = CourseDirectory(config=config, student_id=student, assignment_id=assignment)
    release = Path(coursedir.root) / coursedir.release_directory
    kept = nbmanual.manual_state(coursedir, student, assignment)
    review = nbmanual.changed_cells(coursedir, submitted, student, assignment, kept)
    for cell in review:
        del kept[cell]  # marked by a person, then handed in again changed: nbgrader flags it for review
    stood_in = stage(submitted, release, Path(coursedir.submitted_directory), student, assignment)
    app = Autograde(coursedir=coursedir, config=config)
    app.force, app.create_student = True, True
    outcome = capture_log(app)
    problems = [f"{student_id(student)}/{assignment}/{nb}.ipynb: {gid} changed since it was marked; your mark "
                f"is kept and the cell waits for review in formgrader (needs manual grade)" for nb, gid in review]
    problems += [f"{student_id(student)}/{assignment}/{slug}.ipynb: {slug}-{part} waits for a person: SymPy could "
                 f"not settle an answer; formgrader lists it under needs manual grade (its score replaces the "
                 f"cell's automatic points)" for slug, parts in sorted(per.items()) for part in ("public", "hidden")
                 if parts.get("waiting", {}).get(part) and (slug, f"{slug}-{part}") not in kept]
    if not outcome["success"]:
        lines = [ln for ln in (outcome.get("log") or "").splitlines() if ln.startswith("[ERROR]")]
        problems.append(f"{student_id(student)}/{assignment}: nbgrader wrote no autograded notebooks "
                        f"({lines[0][8:] if lines else 'see nbgrader autograde'}); scores set directly")
    fixed = _set_scores(coursedir, student, assignment, per, kept, set(review))
    if fixed:
        problems.append(f"{student_id(student)}/{assignment}: {fixed} score(s) nbgrader stored differed from our "
                        f"results and were set from them")
    problems += [f"{student_id(student)}/{assignment}/{slug}.ipynb: not graded ({why}); a stand-in page says so"
                 for slug, why in stood_in]
    return problems, bool(outcome["success"])


def _set_scores(coursedir, student, assignment, per, kept, review=frozenset()) -> int:
    """Make the gradebook's auto scores equal ours, give back a person's flags, and ask a person for
    each test cell that waits for one (``per``'s "waiting") or whose mark is to be reviewed (``review``);
    return how many auto scores had to change (the late penalty is then worked out again, as nbgrader
    would)."""
    from nbgrader.api import Gradebook, MissingEntry

    changed = 0
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        gb.update_or_create_student(student)
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            submission = gb.add_submission(assignment, student)
        for nb in submission.notebooks:
            for grade in nb.grades:
                slug, _, part = grade.name.rpartition("-")
                if part in ("public", "hidden") and slug == nb.name:
                    want = float(per.get(slug, {}).get(part, 0.0))
                    if grade.auto_score is None or abs(float(grade.auto_score) - want) > 1e-9:
                        grade.auto_score, changed = want, changed + 1
                if (nb.name, grade.name) in kept:  # a person graded it: never ask for that again
                    grade.needs_manual_grade = kept[(nb.name, grade.name)]
                elif (nb.name, grade.name) in review or nbmanual.waits(per, nb.name, grade.name):
                    grade.needs_manual_grade = True  # formgrader lists it; a person's score is what counts
        gb.db.commit()
    if changed:
        _late_penalties(coursedir, student, assignment)
    return changed


def _late_penalties(coursedir, student, assignment) -> None:
    """nbgrader's own AssignLatePenalties for each notebook of the submission (after scores changed)."""
    from nbformat.v4 import new_notebook
    from nbgrader.api import Gradebook
    from nbgrader.preprocessors import AssignLatePenalties

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        names = [nb.name for nb in gb.find_submission(assignment, student).notebooks]
    for name in names:
        resources = {"nbgrader": {"notebook": name, "assignment": assignment, "student": student,
                                  "db_url": coursedir.db_url}}
        AssignLatePenalties(config=coursedir.config).preprocess(new_notebook(), resources)
