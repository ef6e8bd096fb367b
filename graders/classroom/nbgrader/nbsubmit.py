"""Read nbgrader's submitted/ layout: ``<root>/<student>/<assignment>/<slug>.ipynb``.

nbgrader's own autograde runs a student's whole notebook in one kernel with the
tests, so code in the notebook can patch NumPy, IPython or the checks and fake
a pass. Here the notebook is never executed: it is read as JSON, the source of
the one cell whose nbgrader grade id is ``<slug>-answer`` (the only graded
answer, as the notebook tells students) is written to
``<work>/<student>/<slug>.py``, and the usual sandboxed batch grades that
folder (``LAYOUT``, the batch's Layout for nbgrader's submitted/ folder). Other cells (the student's
experiments, any top-level statement) are
never run.

IPython lines: a ``%magic`` or ``!shell`` line is not Python, so when the answer
cell does not parse, such lines become ``pass`` with the original kept as a
comment, and the exercise's feedback carries a note saying so. If the cell
still does not parse it is graded as written (a syntax error, zero, reported).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ... import registry
from ...grading.answer import MAX_NOTEBOOK_BYTES
from ...batch.run import Layout
from ...outfolder.outfiles import SOURCES, make_folders, student_id, write_atomic
from ...kit import variants

MAGIC_NOTE = "IPython line not run by the grader"
# Bounds on what is read, far above any honest notebook of this course (a few tens of KB, an
# answer cell of a few KB): a crafted notebook must cost its own student a zero, nothing more.
# MAX_NOTEBOOK_BYTES (16 MB) is grading/answer.py's, so a notebook's own test cells read as far.
MAX_ANSWER_CHARS = 200_000


class NotebookProblem(Exception):
    """A notebook the grader cannot take an answer from; the exercise scores zero."""


@dataclass
class Extracted:
    """One student's extracted answers, ready for the batch grader."""

    name: str
    folder: Path  # <work>/<name>, holding <slug>.py per readable answer cell
    problems: dict = field(default_factory=dict)  # slug -> (message, missing)
    notes: dict = field(default_factory=dict)  # slug -> [note, ...] for the feedback
    notebooks: dict = field(default_factory=dict)  # slug -> the submitted .ipynb path
    graded: dict = field(default_factory=dict)  # slug -> digest of every cell nbgrader grades (the proof too)


def _assignment_dirs(root: Path):
    for student in sorted(os.scandir(root), key=lambda e: e.name):
        if student.name.startswith(".") or not student.is_dir(follow_symlinks=False):
            continue
        for name in registry.ASSIGNMENTS:
            yield student.name, Path(student.path) / name


def detect(root: Path) -> bool:
    """True when some ``<root>/<student>/<assignment>/`` holds a ``.ipynb`` (assignments from the registry)."""
    for _, folder in _assignment_dirs(Path(root)):
        if folder.is_dir() and not folder.is_symlink() and any(folder.glob("*.ipynb")):
            return True
    return False


def source_text(source) -> str:
    """A cell's source: nbformat allows a string or a list of lines."""
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    raise NotebookProblem("its answer cell's source is neither text nor a list of lines")


def answer_source(path: Path, slug: str, nb=None) -> str:
    """The source of the one code cell with grade id ``<slug>-answer``; NotebookProblem if none or several.
    ``nb``: the notebook's JSON, when it has been read already."""
    gid = f"{slug}-answer"
    nb = read_json(Path(path)) if nb is None else nb
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        raise NotebookProblem("it is not a notebook (no list of cells)")
    found = []
    for cell in cells:
        meta = cell.get("metadata") if isinstance(cell, dict) else None
        grading = meta.get("nbgrader") if isinstance(meta, dict) else None
        if isinstance(grading, dict) and grading.get("grade_id") == gid:
            found.append(cell)
    if not found:
        raise NotebookProblem(f"it has no answer cell (a cell with nbgrader grade id {gid!r}); "
                              "answers are taken from that cell only, so do not delete or copy it")
    if len(found) > 1:
        raise NotebookProblem(f"it has {len(found)} cells with grade id {gid!r}; keep exactly one "
                              "(a copied answer cell makes the answer ambiguous)")
    if found[0].get("cell_type") != "code":
        raise NotebookProblem(f"its cell {gid!r} is not a code cell")
    source = source_text(found[0].get("source", ""))
    if len(source) > MAX_ANSWER_CHARS:
        raise NotebookProblem(f"its answer cell holds {len(source)} characters, more than any answer needs "
                              f"(the limit is {MAX_ANSWER_CHARS})")
    return source


def graded_cells_digest(nb) -> str:
    """A digest of every cell nbgrader knows (answers, the written proof, tests, tasks), by grade id:
    a changed proof, which no automatic check reads, must still reach autograded/ and formgrader."""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    h = hashlib.sha256()
    for cell in cells if isinstance(cells, list) else ():
        meta = cell.get("metadata") if isinstance(cell, dict) else None
        grading = meta.get("nbgrader") if isinstance(meta, dict) else None
        if isinstance(grading, dict) and isinstance(grading.get("grade_id"), str):
            try:
                text = source_text(cell.get("source", ""))
            except NotebookProblem:
                text = "(unreadable)"
            h.update(f"\0{grading['grade_id']}\0{cell.get('cell_type')}\0{len(text)}\0{text}".encode())
    return h.hexdigest()


def read_json(path: Path):
    """The notebook as JSON, read within bounds; NotebookProblem saying why not."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_NOTEBOOK_BYTES + 1)
    except OSError as exc:
        raise NotebookProblem(f"it could not be read ({exc.strerror or exc})") from None
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise NotebookProblem(f"it is larger than {MAX_NOTEBOOK_BYTES >> 20} MB, far more than a notebook "
                              f"of this course holds")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotebookProblem(f"it is not a readable notebook (not valid JSON: {str(exc)[:200]})") from None
    except (RecursionError, MemoryError):
        raise NotebookProblem("it is not a readable notebook (its JSON is nested far too deeply)") from None


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nested too deeply: the sandbox says so
        return False
    return True


def neutralise_magics(source: str):
    """(source, notes): ``%``/``!`` lines turned into ``pass  # ...`` when that is what stops parsing."""
    if _parses(source):
        return source, []
    lines, notes = [], []
    for line in source.splitlines(keepends=True):
        body = line.lstrip(" \t")
        if body.startswith(("%", "!")):
            indent = line[: len(line) - len(body)]
            shown = body.rstrip("\r\n")
            lines.append(f"{indent}pass  # {MAGIC_NOTE}: {shown}\n")
            notes.append(shown)
        else:
            lines.append(line)
    fixed = "".join(lines)
    if not notes or not _parses(fixed):
        return source, []
    return fixed, [f"{MAGIC_NOTE} (IPython magics and shell commands are not Python; "
                   f"the rest of the cell was graded): " + "; ".join(notes)]


def _write(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8", errors="replace") != text:
        write_atomic(path, text)


def extract(root: Path, work: Path, exercises=None, variants_on: bool = False):
    """Write ``<work>/<student>/<slug>.py`` from the answer cell of each exercise of ``exercises``
    (slugs; default: all); return (students, skipped). ``variants_on``: the course gives each student
    their own numbers, so a STUDENT_ID cell naming someone else is said in the feedback."""
    chosen = [registry.get(s) for s in (exercises or registry.BY_SLUG)]
    root, work = Path(root), Path(work)
    by_name, skipped = {}, []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink() or not entry.is_dir():
            skipped.append(f"{student_id(entry.name)}: not a folder (nbgrader's layout is "
                           f"<student>/<assignment>/<slug>.ipynb)")
            continue
        by_name[entry.name] = Extracted(entry.name, work / entry.name)
    for student in by_name.values():
        _extract_student(root / student.name, student, chosen, variants_on)
    return list(by_name.values()), skipped


MAX_ID_CELL = 2000  # characters: the id cell is one line and a comment


def typed_id(source: str) -> str | None:
    """The id a notebook's id cell holds ("" if left empty), or None if ``source`` is not that cell:
    nothing but ``STUDENT_ID = "<text>"`` and comments."""
    try:
        body = ast.parse(source).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(body) != 1 or not isinstance(body[0], ast.Assign) or len(body[0].targets) != 1:
        return None
    target, value = body[0].targets[0], body[0].value
    if not (isinstance(target, ast.Name) and target.id == "STUDENT_ID" and isinstance(value, ast.Constant)
            and isinstance(value.value, str)):
        return None
    return value.value.strip()


def id_in(nb: dict) -> str | None:
    """What a notebook's STUDENT_ID cell (the exercises that vary) holds, or None if it has none."""
    for cell in nb.get("cells", []) if isinstance(nb.get("cells"), list) else ():
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = source_text(cell.get("source", ""))
            if len(source) <= MAX_ID_CELL and (typed := typed_id(source)) is not None:
                return typed
    return None


def id_note(slug: str, name: str, nb: dict) -> str | None:
    """For a course with variants: the note a student gets whose STUDENT_ID cell names someone else
    than the folder they handed in as (their numbers were another's), or None."""
    typed, who = id_in(nb), student_id(name)
    if not typed or variants.canonical(typed) == variants.canonical(who):
        return None
    own = variants.of(registry.get(slug).assignment, who)
    return (f"Your STUDENT_ID cell says {typed!r}, but this notebook was handed in as {who}'s, so it was graded "
            f"on {who}'s numbers (variant {own}); the notebook showed {typed!r}'s. Write your own id there (or "
            f"leave it empty on your course's JupyterHub) and run the cell under it to see your numbers.")


def _extract_student(src: Path, student: Extracted, exercises, variants_on: bool = False) -> None:
    make_folders(student.folder)  # 0700 (or 2750 in a shared OUT), as all of OUT (outfolder/outfiles.py)
    wanted = set()
    for ex in exercises:
        nb = src / ex.assignment / f"{ex.slug}.ipynb"
        where = f"{student.name}/{ex.assignment}/"
        if nb.is_symlink():
            student.problems[ex.slug] = (f"{nb.name} in {where} is a symbolic link; submit the notebook itself", False)
            continue
        if not nb.is_file():
            student.problems[ex.slug] = (f"{nb.name} was not found in {where}", True)
            continue
        student.notebooks[ex.slug] = nb
        try:
            parsed = read_json(nb)
            student.graded[ex.slug] = graded_cells_digest(parsed)
            source = answer_source(nb, ex.slug, parsed)
        except NotebookProblem as exc:
            student.problems[ex.slug] = (f"{nb.name} was not graded: {exc}", False)
            continue
        source, notes = neutralise_magics(source)
        mismatch = id_note(ex.slug, student.name, parsed) if variants_on and ex.varies else None
        notes += [mismatch] if mismatch else []
        if notes:
            student.notes[ex.slug] = notes
        _write(student.folder / f"{ex.slug}.py", source if source.endswith("\n") or not source else source + "\n")
        wanted.add(f"{ex.slug}.py")
    for stale in student.folder.iterdir():  # answers a previous run extracted and this one did not
        if stale.is_file() and stale.name not in wanted and not stale.name.startswith("."):
            stale.unlink()


# ------------------------------------------------------------------ the batch's layout
def _read(opts, exercises):
    """The batch's view of nbgrader's layout: answer cells extracted to OUT/.sources/."""
    found, skipped = extract(opts.submissions, opts.out / SOURCES, exercises, opts.variants)
    students = [(s.name, s.folder, s.problems, s.notes, {"graded cells": s.graded}) for s in found]
    return students, opts.out / SOURCES, skipped


def present(opts) -> tuple:
    """The assignments some student handed in: what a run grades unless told otherwise."""
    return tuple(name for name in registry.ASSIGNMENTS
                 if any(folder.is_dir() and not folder.is_symlink()
                        for student, folder in _assignment_dirs(Path(opts.submissions)) if folder.name == name))


LAYOUT = Layout("nbgrader", "nbgrader's submitted/<student>/<assignment>/<slug>.ipynb; only the answer cells "
                            "(grade id <slug>-answer) were taken, copied to OUT/.sources/, never executed", _read,
                present)
