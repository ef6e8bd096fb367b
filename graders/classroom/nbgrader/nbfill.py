"""What nbgrader's converter is given in place of a kernel run: our results, in its cells.

``fill_class()`` makes the preprocessor that stands in for nbgrader's Execute:
it writes a student's sandboxed results (OUT/students/<id>/results.json) into
the test cells as their output, the feedback text on stdout and the points as
the cell's value, a float (nbgrader's partial credit).

``stage`` copies a student's handed-in assignment folder to where nbgrader
reads it, putting a stand-in in place of each notebook we could not take an
answer from (not JSON, too large, no answer cell, ...) or that is missing: the
released notebook, its answer cell saying why nothing was graded. nbgrader's
converter then never fails on the whole assignment, so every notebook of the
student gets an autograded copy and a feedback page, and formgrader can open
them all. The student's own files are never changed.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import results_path, student_id
from .nbsubmit import NotebookProblem, answer_source


def split_points(results: dict) -> dict:
    """slug -> {"public": points, "hidden": points, "text": {"public": ..., "hidden": ...}, "waiting": {"public":
    bool, "hidden": bool}} from results.json; "waiting": a check of that part waits for a person (undecided)."""
    from ...terminal.wrap import PAGE_WIDTH
    from ...grading.report import render_text
    from ...grading.results import from_gradescope

    per = {}
    for r in from_gradescope(results):
        for vis in ("public", "hidden"):
            part = replace(r, checks=[c for c in r.checks if c.visibility == vis])  # its variant kept, for the text
            per.setdefault(r.exercise, {"text": {}, "waiting": {}})[vis] = part.points
            per[r.exercise]["waiting"][vis] = any(c.waits for c in part.checks)
            per[r.exercise]["text"][vis] = render_text([part], totals=False, width=PAGE_WIDTH) if part.checks else ""
    return per


def fill_class():
    from nbconvert.preprocessors import Preprocessor
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


def problem_of(notebook: Path, slug: str) -> str:
    """Why no answer could be taken from ``notebook`` ("" when one can)."""
    if notebook.is_symlink():
        return "it is a symbolic link, not the notebook itself"
    if not notebook.is_file():
        return "it was not handed in"
    try:
        answer_source(notebook, slug)
    except NotebookProblem as exc:
        return str(exc)
    return ""


def stand_in(released: Path, slug: str, why: str) -> str:
    """The released notebook of ``slug``, its answer cell saying that nothing was graded and why."""
    nb = json.loads(released.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{slug}-answer":
            cell["source"] = (f"# Your notebook {slug}.ipynb could not be graded: {why}.\n"
                              f"# This page stands in for it; nothing of what you handed in was run.\n")
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def stage(submitted: Path, release: Path, staging: Path, student: str, assignment: str) -> list:
    """Copy submitted/<student>/<assignment>/ to staging/<student>/<assignment>/, stand-ins in place of
    notebooks that give no answer; return [(slug, why)] for the stand-ins."""
    src, dest = submitted / student / assignment, staging / student / assignment
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, symlinks=True, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    stood_in = []
    for ex in registry.of_assignment(assignment):
        why = problem_of(src / f"{ex.slug}.ipynb", ex.slug)
        released = release / assignment / f"{ex.slug}.ipynb"
        if why and released.is_file():
            target = dest / f"{ex.slug}.ipynb"
            if target.is_symlink() or target.exists():
                target.unlink()
            target.write_text(stand_in(released, ex.slug, why), encoding="utf-8")
            stood_in.append((ex.slug, why))
    for link in [p for p in dest.rglob("*") if p.is_symlink()]:  # never follow a student's link
        link.unlink()
    return stood_in
