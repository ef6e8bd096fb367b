"""What a person did, or is to do, in an nbgrader course's gradebook: the part of nbgradebook.py
that keeps a person's work and asks a person for what the grader could not settle.

* ``manual_state``: the cells a person scored (their flags are given back after each autograde);
* ``changed_cells``: those whose source, or for a test cell the answer it judges, changed since
  (the mark stays, flagged for review);
* ``waits`` and ``ask_a_person``: a test cell with a check SymPy could not settle (undecided,
  grading/results.py) is set "needs manual grade", unless a person has scored it.

nbgrader is imported inside each function: it is needed on this path only.
"""

from __future__ import annotations

from pathlib import Path


def manual_state(coursedir, student, assignment) -> dict:
    """(notebook, grade id) -> needs_manual_grade, for the grades a person has scored."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            return {}
        return {(nb.name, g.name): g.needs_manual_grade for nb in submission.notebooks for g in nb.grades
                if g.manual_score is not None}


def changed_cells(coursedir, submitted, student, assignment, kept) -> list:
    """The (notebook, grade id) of ``kept`` whose source in the submission differs from the
    autograded copy a person marked."""
    from .nbsubmit import NotebookProblem, read_json, source_text

    def sources(path):
        try:
            nb = read_json(path)
        except NotebookProblem:
            return {}
        return {c["metadata"]["nbgrader"].get("grade_id"): source_text(c.get("source", "")) for c in nb.get("cells", [])
                if isinstance(c, dict) and isinstance(c.get("metadata", {}).get("nbgrader"), dict)}

    def answered(gid):  # a test cell's score judges the answer cell: it changes with it
        slug, _, part = gid.rpartition("-")
        return [gid, f"{slug}-answer"] if part in ("public", "hidden") else [gid]

    marked = Path(coursedir.root) / coursedir.autograded_directory / student / assignment
    changed = []
    for name in sorted({nb for nb, _ in kept}):
        try:
            before, now = sources(marked / f"{name}.ipynb"), sources(submitted / student / assignment / f"{name}.ipynb")
        except NotebookProblem:  # a cell's source neither text nor lines: nothing to compare
            continue
        changed += [(nb, gid) for nb, gid in kept
                    if nb == name and any(before.get(i) != now.get(i) for i in answered(gid))]
    return changed


def waits(per, nb_name, grade_name) -> bool:
    """Whether the test cell ``grade_name`` of notebook ``nb_name`` has a check waiting for a person."""
    slug, _, part = grade_name.rpartition("-")
    return slug == nb_name and part in ("public", "hidden") and bool(per.get(slug, {}).get("waiting", {}).get(part))


def ask_a_person(coursedir, student, assignment, per) -> None:
    """For a submission kept as it was: each test cell with a check waiting for a person, and no score
    from one yet, is set "needs manual grade" (a person's score is never touched)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            return
        for nb in submission.notebooks:
            for grade in nb.grades:
                if grade.manual_score is None and not grade.needs_manual_grade and waits(per, nb.name, grade.name):
                    grade.needs_manual_grade = True
        gb.db.commit()
