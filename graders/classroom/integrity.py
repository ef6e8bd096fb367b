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
* ``attn_checks changed``: a submitted attn_checks/ that differs from the
  release's;
* ``identical answers``: answers that are the same for several students once
  whitespace and comments are removed (untouched stubs are not counted);
* ``unhardened scores``: gradebook scores that differed from the hardened ones
  (nbgradebook.py reports them before replacing them).

Flags never change a score. The summary lists them and OUT/integrity.json keeps them.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import tokenize
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import registry
from ..grading.outfiles import student_id, write_atomic
from .nbsubmit import MAX_ANSWER_CHARS, NotebookProblem, _read_json, _text

GRADER_MODULES = ("attn_checks", "graders", "nbgrader")
TOUCHY = {("sys", "modules"), ("builtins", None), ("__builtins__", None), ("get_ipython", None)}
NUMPY = ("np", "numpy")
MIN_TOKENS = 20  # shorter identical answers are too likely to be honest coincidences


@dataclass(frozen=True)
class Flag:
    student: str  # the student's id
    where: str  # assignment/slug.ipynb or slug.py
    kind: str  # one of the kinds in the module docstring
    detail: str


def scan(submissions: Path, layout: str, release: Path | None = None, exercises=None) -> list[Flag]:
    """Every flag for the students in SUBMISSIONS (``layout``: "nbgrader" or "folders")."""
    chosen = [registry.get(s) for s in (exercises or registry.BY_SLUG)]
    flags, answers = [], {}
    for entry in sorted(Path(submissions).iterdir()):
        if entry.name.startswith(".") or entry.is_symlink() or not entry.is_dir():
            continue
        who = student_id(entry.name)
        for ex in chosen:
            if layout == "nbgrader":
                where = f"{ex.assignment}/{ex.slug}.ipynb"
                answer = _notebook(entry / ex.assignment / f"{ex.slug}.ipynb", ex.slug, who, where, release, flags)
            else:
                where = f"{ex.slug}.py"
                answer = _source(entry / where)
            if answer is not None:
                flags += [Flag(who, where, "patches the grader", d) for d in _patches(answer)]
                key = _normalised(answer)
                if key is not None and key not in _stubs(ex, release):
                    answers.setdefault((ex.slug, key), []).append((who, where))
        if layout == "nbgrader" and release is not None:
            for assignment in sorted({e.assignment for e in chosen}):
                flags += _changed_checks(entry / assignment, release / assignment, who, assignment)
    for (slug, _), owners in sorted(answers.items()):
        if len(owners) > 1:
            flags += [Flag(w, where, "identical answers",
                           f"the same {slug} answer as {', '.join(o for o, _ in owners if o != w)}")
                      for w, where in owners]
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
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(Counter(f.kind for f in flags).items()))
    lines = [f"Integrity: {len(flags)} flag(s) for a person to look at ({kinds}); no score was changed by them:"]
    lines += [f"  {f.student} {f.where}: {f.kind}: {f.detail}" for f in flags[:most]]
    if len(flags) > most:
        lines.append(f"  ... and {len(flags) - most} more in integrity.json")
    return "\n".join(lines)


# ------------------------------------------------------------------ reading, never running
def _source(path: Path) -> str | None:
    if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_ANSWER_CHARS * 4:
        return None
    return path.read_bytes().decode("utf-8", "replace")


def _notebook(path, slug, who, where, release, flags) -> str | None:
    """The answer cell's source (flags for the other code cells go to ``flags``), or None."""
    if not path.is_file() or path.is_symlink():
        return None
    try:
        nb = _read_json(path)
        cells = [c for c in nb.get("cells", []) if isinstance(c, dict) and c.get("cell_type") == "code"]
        sources = [(c.get("metadata", {}).get("nbgrader", {}).get("grade_id", ""), _text(c.get("source", "")))
                   for c in cells]
    except (NotebookProblem, AttributeError):
        return None
    answer = None
    for gid, source in sources:
        if gid == f"{slug}-answer":
            answer = source if len(source) <= MAX_ANSWER_CHARS else None
        elif gid in (f"{slug}-public", f"{slug}-hidden"):
            released = _released_cell(release, where, gid) if release is not None else None
            if released is not None and source.strip() != released:
                flags.append(Flag(who, where, "checks cell changed", f"the locked cell {gid} is not the release's"))
        else:
            names = _defines(source)
            if names:
                flags.append(Flag(who, where, "outside the answer cell", f"a cell defines {', '.join(names)}"))
            flags += [Flag(who, where, "patches the grader", f"outside the answer cell: {d}")
                      for d in _patches(source)]
    return answer


def _released_cell(release: Path, where: str, gid: str) -> str | None:
    try:
        nb = json.loads((release / where).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for c in nb.get("cells", []):
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == gid:
            return _text(c.get("source", "")).strip()
    return None


def _tree(source: str):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _defines(source: str) -> list[str]:
    """Names a cell binds at its top level: functions, classes, imports, assignments."""
    tree = _tree(source)
    names = []
    for node in tree.body if tree else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [ast.unparse(t) for t in targets]
    return list(dict.fromkeys(names))


def _patches(source: str) -> list[str]:
    """What in ``source`` reaches for the grader: its modules, sys.modules, builtins, IPython, NumPy's functions."""
    tree = _tree(source)
    found = []
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"imports {m}" for m in mods if m.split(".")[0] in GRADER_MODULES]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in TOUCHY:
            found.append(f"touches {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Name) and (node.id, None) in TOUCHY:
            found.append(f"uses {node.id}")
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Attribute) and ast.unparse(t).split(".")[0] in NUMPY:
                    found.append(f"assigns to {ast.unparse(t)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and node.args and ast.unparse(node.args[0]).split(".")[0] in NUMPY:
            found.append(f"calls setattr on {ast.unparse(node.args[0])}")
    return list(dict.fromkeys(found))


def _normalised(source: str) -> str | None:
    """A digest of the answer's tokens without comments and layout, or None if too short to tell."""
    try:
        tokens = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                                    tokenize.DEDENT, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    if len(tokens) < MIN_TOKENS:
        return None
    return hashlib.sha256("\0".join(tokens).encode()).hexdigest()


def _stubs(ex, release: Path | None) -> set:
    """The normalised stub: the .py stub, and the released notebook's answer cell (what nobody wrote)."""
    from .course import ROOT

    found = set()
    stub = ROOT / "exercises" / f"{ex.slug}.py"
    if stub.is_file():
        found.add(_normalised(stub.read_text(encoding="utf-8")))
    released = _released_cell(release, f"{ex.assignment}/{ex.slug}.ipynb", f"{ex.slug}-answer") if release else None
    if released is not None:
        found.add(_normalised(released))
    return found


def _changed_checks(handed_in: Path, released: Path, who: str, assignment: str) -> list[Flag]:
    """A flag if the attn_checks/ handed in differs from the release's (files added, changed or gone)."""
    mine, theirs = handed_in / "attn_checks", released / "attn_checks"
    if not mine.is_dir() or not theirs.is_dir():
        return []
    a, b = _tree_digests(mine), _tree_digests(theirs)
    changed = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
    if not changed:
        return []
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return [Flag(who, f"{assignment}/attn_checks", "attn_checks changed", f"differs from the release: {shown}")]


def _tree_digests(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
