"""Signs of cheating that the hardened grader defeated, for a person to look at.

The sandbox makes a patched NumPy or a redefined check earn nothing, but an
instructor should still know that someone tried. ``scan`` reads what was
handed in (never running it) and flags:

* ``outside the answer cell``: a code cell other than the answer cell that
  defines, imports or patches something (nbgrader's autograde would run it);
* ``checks cell changed``: a locked test cell whose code is not the release's;
* ``patches the grader``: code that imports the checks' modules (attn_checks,
  graders, nbgrader), touches sys.modules, builtins or IPython, or assigns to
  NumPy's functions;
* ``looks around``: code that searches the file system (os.walk, glob, a
  Path's rglob), reads /proc, runs code it builds (exec, eval, compile) or
  imports subprocess or ctypes: what a search for the solutions looks like;
* ``attn_checks changed``: a submitted attn_checks/ that differs from the
  release's;
* ``identical answers``: answers that are the same for several students once
  whitespace and comments are removed, where that is a sign: never an
  untouched stub, nor a short right answer the exercise forces (identical.py
  says which; copying.find flags them with the class's results, from the
  answers this scan hands it in ``codes``);
* ``unhardened scores``: gradebook scores that differed from the hardened ones
  (nbgradebook.py reports them before replacing them);
* ``id does not match its folder``: a notebook whose STUDENT_ID cell (an exercise
  whose numbers vary asks for it, kit/variants.py) names another student than the
  one who handed it in;
* ``could not be scanned``: a file the scan did not read to the end, and why
  (larger than it reads, or a failure of the scan itself): a person looks at it.

Flags never change a score. The summary lists them and OUT/integrity.json keeps them.

Whatever a student hands in, the scan finishes and OUT/integrity.json is
written: it reads at most MAX_SCANNED characters of code from a file (a .py
file, or a notebook's answer cell, or its other cells together), parses them
within bounds (codescan.py), looks at no more than the sandbox's MAX_ENTRIES
entries of a submitted attn_checks/, and a failure in one file becomes a flag
on that file, never the end of the scan.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import student_id, write_atomic
from ...kit.variants import canonical
from ...sandbox.inside.files import MAX_ENTRIES
from .codescan import defines, looks_around, patches
from ..nbgrader.nbsubmit import MAX_ANSWER_CHARS, MAX_ID_CELL, NotebookProblem, read_json, source_text, typed_id  # noqa: F401

MAX_SCANNED = MAX_ANSWER_CHARS  # characters of code read from one file: far more than any answer


class Unscanned(Exception):
    """A file the scan does not read to the end; the message says why, for the flag."""


@dataclass(frozen=True)
class Flag:
    student: str  # the student's id
    where: str  # assignment/slug.ipynb or slug.py
    kind: str  # one of the kinds in the module docstring
    detail: str


def where_of(ex, layout: str) -> str:
    """The file of exercise ``ex`` inside a student's folder, as the flags name it."""
    return f"{ex.assignment}/{ex.slug}.ipynb" if layout == "nbgrader" else f"{ex.slug}.py"


def scan(submissions: Path, layout: str, release: Path | None = None, exercises=None, codes=None,
         variants: bool = False) -> list[Flag]:
    """Every flag for the students in SUBMISSIONS (``layout``: "nbgrader" or "folders") but identical answers.
    ``codes``: a dict that gets, per slug, {student: (where, answer's code)} for copying.py, which flags
    identical answers and similar code. ``variants``: the class was graded on each student's own numbers,
    so a notebook's STUDENT_ID matters."""
    chosen = [registry.get(s) for s in (exercises or registry.BY_SLUG)]
    flags = []
    for entry in sorted(Path(submissions).iterdir()):
        if entry.name.startswith(".") or entry.is_symlink() or not entry.is_dir():
            continue
        who = student_id(entry.name)
        for ex in chosen:
            where = where_of(ex, layout)
            try:
                if layout == "nbgrader":
                    answer = _notebook(entry / ex.assignment / f"{ex.slug}.ipynb", ex.slug, who, where, release,
                                       flags, variants)
                else:
                    answer = _source(entry / where)
                if answer is not None:
                    flags += [Flag(who, where, "patches the grader", d) for d in patches(answer)]
                    flags += [Flag(who, where, "looks around", d) for d in looks_around(answer)]
                    if codes is not None:
                        codes.setdefault(ex.slug, {})[who] = (where, answer)
            except Exception as exc:  # noqa: BLE001 - one file, however made, is a flag, never the scan's end
                flags.append(Flag(who, where, "could not be scanned", _why(exc)))
        if layout == "nbgrader" and release is not None:
            for assignment in sorted({e.assignment for e in chosen}):
                try:
                    flags += _changed_checks(entry / assignment, release / assignment, who, assignment)
                except Exception as exc:  # noqa: BLE001 - as above
                    flags.append(Flag(who, f"{assignment}/attn_checks", "could not be scanned", _why(exc)))
    return sorted(flags, key=lambda f: (f.student, f.where, f.kind, f.detail))


def unhardened(differences: list[str]) -> list[Flag]:
    """Flags from nbgradebook's "student assignment/notebook: before -> after" lines."""
    flags = []
    for line in differences:
        who, _, rest = line.partition(" ")
        where, _, change = rest.partition(": ")
        flags.append(Flag(who, f"{where}.ipynb", "unhardened scores", f"the gradebook held {change}"))
    return flags


def write(out: Path, flags: list[Flag]) -> None:
    write_atomic(Path(out) / "integrity.json", json.dumps([asdict(f) for f in flags], indent=2) + "\n")


def summary(flags: list[Flag], most: int = 20) -> str:
    if not flags:
        return "Integrity: nothing to look at"
    kinds = ", ".join(f"{k}: {n}" for k, n in sorted(Counter(f.kind for f in flags).items()))
    lines = [f"Integrity: {len(flags)} flag(s) for a person to look at ({kinds}); no score was changed by them:"]
    lines += [f"  {f.student} {f.where}: {f.kind}: {f.detail}" for f in flags[:most]]
    if len(flags) > most:
        lines.append(f"  ... and {len(flags) - most} more in integrity.json")
    return "\n".join(lines)


def _why(exc: Exception) -> str:
    """The detail of a "could not be scanned" flag: the cause, in words."""
    if isinstance(exc, Unscanned):
        return str(exc)
    if isinstance(exc, RecursionError):
        cause = "its code is nested too deeply for the scan"
    elif isinstance(exc, MemoryError):
        cause = "the scan ran out of memory on it"
    else:
        cause = f"the scan failed ({type(exc).__name__}: {str(exc)[:200]})"
    return f"{cause}; look at it yourself"


# ------------------------------------------------------------------ reading, never running
def _source(path: Path) -> str | None:
    """The text of a handed-in .py file, at most MAX_SCANNED characters; Unscanned if longer."""
    if not path.is_file() or path.is_symlink():
        return None
    with open(path, "rb") as f:
        data = f.read(4 * MAX_SCANNED + 1)  # UTF-8 takes at most 4 bytes a character
    text = data.decode("utf-8", "replace")
    if len(data) > 4 * MAX_SCANNED or len(text) > MAX_SCANNED:
        raise Unscanned(f"it holds more than {MAX_SCANNED:,} characters, more than any answer needs, so it "
                        f"was not read; look at it yourself")
    return text


def _notebook(path, slug, who, where, release, flags, variants=False) -> str | None:
    """The answer cell's source (flags for the other code cells go to ``flags``), or None."""
    if not path.is_file() or path.is_symlink():
        return None
    try:
        nb = read_json(path)
        cells = [c for c in nb.get("cells", []) if isinstance(c, dict) and c.get("cell_type") == "code"]
        sources = [(c.get("metadata", {}).get("nbgrader", {}).get("grade_id", ""), source_text(c.get("source", "")))
                   for c in cells]
    except (NotebookProblem, AttributeError):
        return None
    answer, left = None, MAX_SCANNED  # characters of the other cells still to read
    for gid, source in sources:
        if gid == f"{slug}-answer":
            answer = source if len(source) <= MAX_ANSWER_CHARS else None
        elif gid in (f"{slug}-public", f"{slug}-hidden", f"{slug}-numbers"):
            released = _released_cell(release, where, gid) if release is not None else None
            if released is not None and source.strip() != released:
                flags.append(Flag(who, where, "checks cell changed", f"the locked cell {gid} is not the release's"))
        elif len(source) <= MAX_ID_CELL and (typed := typed_id(source)) is not None:
            if variants and typed and canonical(typed) != canonical(who):
                flags.append(Flag(who, where, "id does not match its folder",
                                  f"its STUDENT_ID cell says {typed!r}, but {who} handed it in (it is graded "
                                  f"on {who}'s numbers)"))
        elif len(source) > left:
            if left >= 0:
                flags.append(Flag(who, where, "could not be scanned", f"its cells outside the answer cell hold more "
                                  f"than {MAX_SCANNED:,} characters of code, so the rest were not read; look at "
                                  f"them yourself"))
            left = -1
        else:
            left -= len(source)
            names = defines(source)
            if names:
                flags.append(Flag(who, where, "outside the answer cell", f"a cell defines {', '.join(names)}"))
            flags += [Flag(who, where, "patches the grader", f"outside the answer cell: {d}")
                      for d in patches(source)]
            flags += [Flag(who, where, "looks around", f"outside the answer cell: {d}")
                      for d in looks_around(source)]
    return answer


def _released_cell(release: Path, where: str, gid: str) -> str | None:
    try:
        nb = json.loads((release / where).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for c in nb.get("cells", []):
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == gid:
            return source_text(c.get("source", "")).strip()
    return None


def stub_texts(ex, release: Path | None) -> list[str]:
    """What nobody wrote of an answer: the .py stub, and the released notebook's answer cell."""
    from ..authoring.course import ROOT

    found = []
    stub = ROOT / "exercises" / f"{ex.slug}.py"
    if stub.is_file():
        found.append(stub.read_text(encoding="utf-8"))
    released = _released_cell(release, f"{ex.assignment}/{ex.slug}.ipynb", f"{ex.slug}-answer") if release else None
    if released is not None:
        found.append(released)
    return found


def _changed_checks(handed_in: Path, released: Path, who: str, assignment: str) -> list[Flag]:
    """A flag if the attn_checks/ handed in differs from the release's (files added, changed or gone)."""
    mine, theirs = handed_in / "attn_checks", released / "attn_checks"
    if not mine.is_dir() or mine.is_symlink() or not theirs.is_dir():
        return []
    a, crowded = _sizes(mine)
    b, _ = _sizes(theirs)
    changed = sorted(n for n in set(a) | set(b)
                     if a.get(n) != b.get(n) or _digest(mine / n, b[n]) != _digest(theirs / n, b[n]))
    if crowded:
        changed.append(f"more than {MAX_ENTRIES:,} entries")
    if not changed:
        return []
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return [Flag(who, f"{assignment}/attn_checks", "attn_checks changed", f"differs from the release: {shown}")]


def _sizes(folder: Path) -> tuple[dict, bool]:
    """({relative path: size} of the regular files under ``folder``, caches aside; whether it holds more
    than MAX_ENTRIES entries, of which only the first are looked at). A file is read only when it has
    the size of the release's (``_digest``), so a handed-in copy costs at most what the release holds."""
    found, seen, todo = {}, 0, [folder]
    while todo:
        with os.scandir(todo.pop()) as entries:
            for entry in entries:
                seen += 1
                if seen > MAX_ENTRIES:
                    return found, True
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        todo.append(entry.path)
                elif entry.is_file(follow_symlinks=False) and not entry.name.endswith(".pyc"):
                    found[Path(entry.path).relative_to(folder).as_posix()] = entry.stat(follow_symlinks=False).st_size
    return found, False


def _digest(path: Path, size: int) -> str:
    """The digest of the file's first ``size`` bytes and whether there are more."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(size + 1)).hexdigest()
