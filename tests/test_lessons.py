"""The lesson notebooks in course/lessons/.

Every notebook must run top to bottom in a fresh kernel without an error (executed
with nbclient, working directory course/lessons), must be stored without outputs,
and must not define a function named like one of the exercises' functions: the
lessons are shipped to students together with the stubs.

The storage and name checks read the .ipynb JSON directly; only the execution test
needs nbclient, nbformat, ipykernel and matplotlib (the kernel always runs with the
interpreter that runs pytest, whatever kernelspecs are installed elsewhere).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.authoring.scaffold import LESSON_LIMIT, placeholders

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "course" / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb"))
CELL_TIMEOUT = 120  # seconds per cell

# The functions the students write (exercises/*.py, as the registry lists them); a lesson must not define any of them.
EXERCISE_FUNCTIONS = {f for e in registry.EXERCISES for f in e.functions}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _python(source: str) -> str:
    """The cell's source with IPython magics and shell escapes commented out, so ast can parse it."""
    return "\n".join("# " + line if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def _bound_names(tree: ast.AST):
    """(name, line) for every function, class, lambda assignment and import that binds a name."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node.lineno
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        yield sub.id, node.lineno
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield (alias.asname or alias.name).split(".")[0], node.lineno


def test_there_are_four_to_six_numbered_lessons():
    """Numbered 01, 02, ... with no gap; four to LESSON_LIMIT (six) written ones: a placeholder that
    'attn-grade course new' wrote is not counted (tests/test_scaffold_lessons.py names it, and a release
    refuses it), so a new exercise passes its tests at once; the lesson written there is counted."""
    names = [p.name for p in NOTEBOOKS]
    written = [p.name for p in NOTEBOOKS if p not in placeholders(ROOT).values()]
    assert 4 <= len(written) <= LESSON_LIMIT, written
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", n) for n in names), names
    numbers = [int(n[:2]) for n in names]
    assert numbers == list(range(1, len(names) + 1)), names


def test_readme_lists_every_lesson():
    readme = (LESSONS / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in NOTEBOOKS if p.name not in readme]
    assert not missing, f"course/lessons/README.md does not mention {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_without_outputs(path):
    nb = _load(path)
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    dirty = [i for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
             and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: code cells {dirty} have stored outputs or execution counts; clear them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_exercise_function_is_defined(path):
    found = []
    for i, cell in enumerate(_load(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse(_python(_source(cell)), filename=f"{path.name}[cell {i}]")
        found += [f"cell {i}, line {line}: {name}" for name, line in _bound_names(tree)
                  if name in EXERCISE_FUNCTIONS]
    assert not found, f"{path.name} defines exercise functions (that gives the exercise away): {found}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_runs_top_to_bottom(path):
    import ipykernel  # noqa: F401 - the test extra installs these; a missing one must fail CI
    import matplotlib  # noqa: F401
    import nbclient
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    nb = nbformat.read(path, as_version=4)
    # No kernelspec directories: only ipykernel's built-in python3 spec remains, which runs
    # this very interpreter (a python3 kernelspec elsewhere on the machine is ignored).
    km = KernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(LESSONS)}})
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors, f"{path.name}: cells {errors} raised"
