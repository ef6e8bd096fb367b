"""The notebook of one exercise, made from its sources: exercises/<slug>.py (text and signatures),
solutions/<slug>.py (the bodies, between nbgrader's solution markers), the graders' check points,
and for a written answer exercises/<slug>.md and solutions/<slug>.md. ``attn-grade course build``
(course.py) writes them into the course; the output is deterministic (stable cell ids, sorted keys,
no timestamps)."""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path

from ... import registry

ROOT = Path(__file__).resolve().parents[3]

HOW_TO = """\
### How to work

* Write all your code in the **answer cell** below: only that cell is graded
  (a copy of your functions anywhere else is not seen). Replace each
  `# YOUR CODE HERE` / `raise NotImplementedError()` with your code.
* Run the answer cell, then the **public checks** cell: it grades what it can
  without the answers and explains what is wrong. Run it as often as you like.
* The **hidden checks** cell stays empty for you: your instructor's checks run
  there when your notebook is graded.
* Points: {public:g} from the public checks and {hidden:g} from the hidden ones{written}.
"""
HIDDEN = ("# Your instructor's hidden checks run here when your notebook is graded.\n"
          "### BEGIN HIDDEN TESTS\nfrom graders.grading.notebook import hidden_checks\n"
          'hidden_checks("{slug}", globals())\n### END HIDDEN TESTS')
PUBLIC = 'from attn_checks.grading.notebook import public_checks\npublic_checks("{slug}", globals())'
# An exercise whose numbers vary (registry: varies) asks for the student's id, then shows their numbers.
STUDENT_ID = ('# If your course gives each student their own numbers: your student id, as your course knows it\n'
              '# (on your course\'s JupyterHub leave it empty: your user name is used). Run this cell and the next.\n'
              'STUDENT_ID = ""')
NUMBERS = 'from attn_checks.grading.notebook import your_numbers\nyour_numbers("{slug}", globals())'


class BuildError(Exception):
    """The sources cannot make a notebook; the message says which file and why."""


def _raises_not_implemented(func: ast.FunctionDef) -> bool:
    last = func.body[-1]
    if not isinstance(last, ast.Raise) or last.exc is None:
        return False
    exc = last.exc.func if isinstance(last.exc, ast.Call) else last.exc
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


# ------------------------------------------------------------------ the answer cell
def answer_source(stub: str, solution: str, where: str = "") -> tuple[str, str]:
    """(module docstring, answer cell): the stub with each function body replaced by the
    solution's, between solution markers.

    Everything the solution needs must live inside its functions (or be in the stub):
    a solution block outside any function would be cleared to a top-level
    ``raise NotImplementedError()``, which stops the student's cell before it defines
    anything, and would grade differently in nbgrader and in the sandbox.
    """
    s_tree, r_tree = ast.parse(stub), ast.parse(solution)
    worked = [n.name for n in s_tree.body if isinstance(n, ast.FunctionDef) and not _raises_not_implemented(n)]
    if worked:
        raise BuildError(f"exercises/{where}.py is not the stub any more: {', '.join(worked)}() do(es) not end in "
                         f"raise NotImplementedError, as in a worked exercise. The course is built from the stubs: "
                         f"put them back (git stash, or git checkout -- exercises/), or build in a fresh clone")
    s_lines, r_lines = stub.splitlines(), solution.splitlines()
    doc = ast.get_docstring(s_tree, clean=True) or ""
    body = s_tree.body[1:] if doc else s_tree.body
    ref_funcs = {n.name: n for n in r_tree.body if isinstance(n, ast.FunctionDef)}
    stub_funcs = {n.name for n in body if isinstance(n, ast.FunctionDef)}
    stub_dumps = {ast.dump(n) for n in body if not isinstance(n, ast.FunctionDef)}
    extras = [n for n in (r_tree.body[1:] if ast.get_docstring(r_tree) else r_tree.body)
              if not (isinstance(n, ast.FunctionDef) and n.name in stub_funcs) and ast.dump(n) not in stub_dumps]
    if extras:
        what = ", ".join(r_lines[n.lineno - 1].strip()[:40] for n in extras[:3])
        raise BuildError(f"solutions/{where}.py has code outside the stub's functions ({what}); "
                         f"move it inside the functions that need it, or give it in the stub")
    out, line = [], (s_tree.body[0].end_lineno if doc else 0)
    while line < len(s_lines) and not s_lines[line].strip():
        line += 1
    for node in body:
        start = _start(node, s_lines)
        out += s_lines[line:start]
        if isinstance(node, ast.FunctionDef):
            if node.name not in ref_funcs:
                raise BuildError(f"solutions/{where}.py has no function {node.name}()")
            out += _stub_head(node, s_lines)
            indent = " " * node.body[0].col_offset
            out += [indent + "### BEGIN SOLUTION", *_body(ref_funcs[node.name], r_lines, indent),
                    indent + "### END SOLUTION"]
        else:
            out += s_lines[start:node.end_lineno]
        line = node.end_lineno
    out += s_lines[line:]
    return doc, "\n".join(out).strip("\n")


def _start(node, lines) -> int:
    """Index of a statement's first line, taking the comment lines just above it."""
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    while start > 0 and lines[start - 1].strip().startswith("#"):
        start -= 1
    return start


def _stub_head(node, lines) -> list:
    """A stub function's signature and docstring, without its body."""
    first = node.body[0]
    doc = isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
        and isinstance(first.value.value, str)
    end = first.end_lineno if doc else _start(first, lines)
    return lines[_start(node, lines):end]


def _body(node, lines, indent) -> list:
    """A solution function's body without its docstring, re-indented to ``indent``."""
    stmts = node.body
    if ast.get_docstring(node) is not None:
        stmts = stmts[1:]
    if not stmts or stmts[0].lineno == node.lineno:
        raise BuildError(f"the solution's {node.name}() needs a body on lines of its own")
    text = textwrap.dedent("\n".join(lines[_start(stmts[0], lines):node.end_lineno]))
    return [indent + ln if ln.strip() else "" for ln in text.splitlines()]


# ------------------------------------------------------------------ notebooks
def _markdown_of(doc: str) -> str:
    """A stub's docstring as Markdown: no summary line (the title replaces it), no
    paragraph about ``attn-grade check`` (the notebook has its own cells for that)."""
    paras = doc.split("\n\n")[1:]
    paras = [p for p in paras if "attn-grade check" not in p]
    return re.sub(r"``([^`]+)``", r"`\1`", "\n\n".join(paras)).strip()


def _cell(kind, cid, text, nbgrader=None) -> dict:
    cell = {"cell_type": kind, "id": cid, "metadata": {}, "source": text.splitlines(keepends=True)}
    if nbgrader:
        cell["metadata"]["nbgrader"] = dict(nbgrader, grade_id=cid, schema_version=3)
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _written(slug, root) -> tuple:
    """(task and rubric, model answer, points) of exercises/<slug>.md, or None."""
    task_file = root / "exercises" / f"{slug}.md"
    if not task_file.is_file():
        return None
    task = task_file.read_text(encoding="utf-8")
    m = re.match(r"<!--\s*points:\s*(\d+(?:\.\d+)?)\s*-->\s*\n", task)
    if not m:
        raise BuildError(f"{task_file.relative_to(root)}: the first line must be <!-- points: N -->")
    model = root / "solutions" / f"{slug}.md"
    if not model.is_file():
        raise BuildError(f"{task_file.relative_to(root)} needs a model answer in solutions/{slug}.md")
    return task[m.end():].strip(), model.read_text(encoding="utf-8").strip(), float(m.group(1))


def notebook(slug: str, root: Path = ROOT) -> str:
    """The source notebook of one exercise, as the JSON text written to disk."""
    from ...grading.engine import points_of

    ex = registry.get(slug)
    stub, sol = (root / d / f"{slug}.py" for d in ("exercises", "solutions"))
    try:
        doc, answer = answer_source(stub.read_text(encoding="utf-8"), sol.read_text(encoding="utf-8"), slug)
    except (OSError, SyntaxError) as exc:
        raise BuildError(f"{slug}: cannot read its stub and solution ({exc})") from None
    public, hidden = points_of(slug)
    written = _written(slug, root)
    extra = f", plus {written[2]:g} for the written answer, marked by hand" if written else ""
    own = [_cell("code", f"{slug}-id", STUDENT_ID),
           _cell("code", f"{slug}-numbers", NUMBERS.format(slug=slug),
                 {"grade": False, "solution": False, "locked": True})] if ex.varies else []
    cells = [
        _cell("markdown", f"{slug}-intro", f"# {ex.title}\n\n{_markdown_of(doc)}"),
        *own,
        _cell("markdown", f"{slug}-how", HOW_TO.format(public=public, hidden=hidden,
                                                       written=extra)),
        _cell("code", f"{slug}-answer", answer, {"grade": False, "solution": True, "locked": False}),
        _cell("code", f"{slug}-public", PUBLIC.format(slug=slug),
              {"grade": True, "solution": False, "locked": True, "points": public}),
        _cell("code", f"{slug}-hidden", HIDDEN.format(slug=slug),
              {"grade": True, "solution": False, "locked": True, "points": hidden}),
    ]
    if written:
        task, model, points = written
        cells += [_cell("markdown", f"{slug}-rubric", task, {"grade": False, "solution": False, "locked": True}),
                  _cell("markdown", f"{slug}-proof", f"### BEGIN SOLUTION\n{model}\n### END SOLUTION",
                        {"grade": True, "solution": True, "locked": False, "points": points})]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                      "name": "python3"},
                       "language_info": {"name": "python"}}}
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
