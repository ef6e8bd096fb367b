"""The answer cell that a notebook's test cells grade, as the real grading sees it.

``attn-grade grade`` (and so the instructor's grade) takes a notebook's answer
from its one cell with nbgrader grade id ``<slug>-answer``, as saved, never
from the kernel. A test cell that graded the kernel's globals would give 8/8 to
a function written in another cell, or left over from an earlier run, that the
real grading never sees. So the test cells grade the answer cell: its saved
text, read from the notebook (the notebook the kernel says it runs, or
``<slug>.ipynb`` in the kernel's folder) and executed afresh, in a namespace of
its own. ``notes`` say, in words, where the kernel's definitions differ from
what was graded (another cell, an unsaved edit, a name the cell borrows).
Without a notebook (plain Python, the tests) the kernel's functions are graded
as they are.
"""

from __future__ import annotations

import ast
import builtins
import json
import linecache
import os
from dataclasses import dataclass, field

from .. import registry
from ..sandbox.inside import worker as wirefmt

# A notebook is read only this far, here and by the real grading (graders/classroom/nbgrader/nbsubmit.py):
# far above any honest notebook of this course, a few tens of KB.
MAX_NOTEBOOK_BYTES = 16 << 20
TOO_LARGE = (f"your notebook is larger than {MAX_NOTEBOOK_BYTES >> 20} MB, far more than a notebook of this course "
             f"holds, so its answer cell was not read (your instructor's grading does not read it either): clear "
             f"its outputs and save it")
DIFFERENT = ("{name} in your kernel is not the {name} of your answer cell as saved in the notebook: it was "
             "defined in another cell, or the answer cell has changed since the notebook was saved. These checks "
             "graded the saved answer cell, as your instructor's grading will; save the notebook (Ctrl+S) after "
             "editing the answer cell")


@dataclass
class Answer:
    """What a test cell grades: a namespace of functions, or a problem that stops it."""

    namespace: dict
    problem: str = ""
    notes: list = field(default_factory=list)
    where: str = "your answer cell"


def answer_of(slug: str, kernel: dict, quiet) -> Answer:
    """The answer cell of ``slug``, executed inside ``quiet()`` (which keeps what it prints out of sight),
    with notes on how it differs from the kernel's namespace ``kernel``."""
    try:
        source = saved_answer(slug, kernel)
    except _TooLarge:
        return Answer({}, TOO_LARGE)
    if source is None:
        return Answer(kernel)
    answer = run_cell(slug, source, quiet)
    return Answer(answer.namespace, answer.problem, _differences(slug, kernel, answer.namespace, source))


def saved_answer(slug: str, kernel: dict):
    """The saved source of the notebook's ``<slug>-answer`` cell, or None without such a notebook."""
    here = os.path.join(os.getcwd(), f"{slug}.ipynb")
    for path in (os.environ.get("JPY_SESSION_NAME"), kernel.get("__vsc_ipynb_file__"), here):
        if isinstance(path, str) and path.endswith(".ipynb") and os.path.isfile(path):
            source = _cell(path, f"{slug}-answer")
            if source is not None:
                return source
    return None


class _TooLarge(Exception):
    pass


def _cell(path, grade_id):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_NOTEBOOK_BYTES + 1)
        if len(data) > MAX_NOTEBOOK_BYTES:
            raise _TooLarge
        cells = json.loads(data.decode("utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError, RecursionError):
        return None
    found = [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"
             and (c.get("metadata") or {}).get("nbgrader", {}).get("grade_id") == grade_id]
    if len(found) != 1:
        return None
    source = found[0].get("source", "")
    return "".join(source) if isinstance(source, list) else source if isinstance(source, str) else None


def neutralised(source: str) -> str:
    """``%magic`` and ``!shell`` lines as ``pass``, when they are what stops the cell parsing (as the
    real grading reads a notebook, graders/classroom/nbgrader/nbsubmit.py)."""
    try:
        ast.parse(source)
        return source
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nested too deeply: run_cell says so
        pass
    lines = []
    for line in source.splitlines(keepends=True):
        body = line.lstrip(" \t")
        lines.append(line[: len(line) - len(body)] + "pass\n" if body.startswith(("%", "!")) else line)
    return "".join(lines)


def run_cell(slug: str, source: str, quiet) -> Answer:
    """Execute an answer cell as the grader imports a file: a fresh module, nothing of the kernel's."""
    filename = f"<answer cell of {slug}>"
    source = neutralised(source)
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    module = {"__name__": slug, "__builtins__": builtins}
    with quiet():
        try:
            exec(compile(source, filename, "exec", dont_inherit=True), module)  # noqa: S102 - the student's own cell
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit and syntax errors are answers too
            info = wirefmt.describe_exception(exc, filename)
            where = f" at {info['where']}" if info.get("where") else ""
            msg = f": {info['message']}" if info.get("message") else ""
            return Answer(module, f"your answer cell raised {info['type']}{msg}{where}")
    return Answer(module)


def _differences(slug, kernel, graded, source=""):
    """Notes on the kernel's functions that are not the ones graded (``source``: the saved cell)."""
    notes, alike = [], None
    for name in registry.get(slug).functions:
        mine, theirs = kernel.get(name), graded.get(name)
        if callable(mine) and not callable(theirs):
            notes.append(f"{name} is defined in your kernel but not in the answer cell; only the answer cell is "
                         f"graded, so {name} counts as missing: write it there")
        elif callable(mine) and not _same_function(mine, theirs):
            alike = _as_ipython_compiles(source) if alike is None else alike
            if not _same_function(mine, theirs, alike.get(name)):
                notes.append(DIFFERENT.format(name=name))
    return notes


def _same_function(a, b, code=None):
    """Whether kernel function ``a`` is answer-cell function ``b``: the same code (or ``code``, the
    cell's function compiled as IPython compiles it) and the same defaults."""
    ca, cb = getattr(a, "__code__", None), code or getattr(b, "__code__", None)
    try:
        return ca is not None and cb is not None and _plain(ca) == _plain(cb) and a.__defaults__ == b.__defaults__
    except Exception:  # noqa: BLE001 - defaults that cannot be compared (arrays): call them different
        return False


def _as_ipython_compiles(source: str) -> dict:
    """The code of each function the cell defines at its top level, compiled one statement at a time
    as IPython runs a cell. Python 3.11 compiles ``np.exp(z)`` differently when ``import numpy as np``
    is in the same compilation (it knows ``np`` is a module), so the kernel's code of a right answer
    differs from the cell's compiled whole; its source does not."""
    try:
        tree = ast.parse(neutralised(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    codes = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            try:
                module = compile(ast.Module([node], type_ignores=[]), "<cell>", "exec", dont_inherit=True)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            codes.update((c.co_name, c) for c in module.co_consts if isinstance(c, type(module)))
    return codes


def _plain(code):
    """A code object without its __future__ flags (a kernel keeps those of earlier cells), nested ones too."""
    consts = tuple(_plain(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_flags=code.co_flags & 0xFFFF, co_consts=consts)


def borrowed_names(messages, kernel, graded) -> list:
    """Notes for names the answer cell uses but only another cell defines (a NameError when graded)."""
    names = sorted({m.split("'")[1] for text in messages for m in text.split("name ")[1:]
                    if m.startswith("'") and "' is not defined" in m})
    return [f"{n} is defined in another cell of your notebook, not in the answer cell: the answer cell is graded "
            f"on its own, so it must define or import everything it uses" for n in names
            if n in kernel and n not in graded]
