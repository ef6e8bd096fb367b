"""A notebook's public-checks cell grades what the real grading grades: the answer cell.

The in-process tests build a notebook file in a temporary folder (the kernel's
working directory) and a kernel namespace by hand; the last test runs a real
kernel through nbclient, where a function written in another cell used to
earn full public marks.
"""

from __future__ import annotations

import json
import linecache

import pytest

from graders.grading.engine import ROOT, checks_of
from graders.grading.notebook import public_checks

SOLUTION = (ROOT / "solutions" / "softmax.py").read_text(encoding="utf-8")
STUB = (ROOT / "exercises" / "softmax.py").read_text(encoding="utf-8")
FULL = sum(c.spec.points for c in checks_of("softmax") if not c.spec.hidden)  # softmax's public points
SHOWN = f"{FULL:g}/{FULL:g} points"


def _notebook(folder, answer, slug="softmax", name=None):
    cells = [{"cell_type": "code", "execution_count": None, "id": "a", "outputs": [], "source": answer,
              "metadata": {"nbgrader": {"grade_id": f"{slug}-answer", "solution": True, "grade": False,
                                        "locked": False, "schema_version": 3}}}]
    path = folder / (name or f"{slug}.ipynb")
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                    encoding="utf-8")
    return path


def _kernel(*cells):
    """A kernel namespace after running ``cells`` as IPython does: each cell its own file in linecache."""
    namespace = {"__name__": "__main__"}
    for i, source in enumerate(cells):
        filename = f"/tmp/ipykernel_test/cell{i}.py"
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        try:
            exec(compile(source, filename, "exec"), namespace)
        except NotImplementedError:
            pass
    return namespace


def _said(out: str) -> str:
    """What a check cell printed, its lines (wrapped to fit a page) joined again."""
    return " ".join(out.split())


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    return tmp_path


def test_a_function_from_another_cell_earns_nothing_and_is_named(folder, capsys):
    _notebook(folder, STUB)
    points = public_checks("softmax", _kernel(STUB, SOLUTION))  # the answer cell, then a scratch cell
    out = _said(capsys.readouterr().out)
    assert points == 0.0
    assert "softmax in your kernel is not the softmax of your answer cell" in out


def test_the_answer_cell_as_saved_and_run_earns_full_marks_without_a_note(folder, capsys):
    _notebook(folder, SOLUTION)
    assert public_checks("softmax", _kernel(SOLUTION)) == FULL
    assert "Note:" not in capsys.readouterr().out


def test_a_leftover_definition_is_not_graded(folder, capsys):
    """The kernel still has softmax from an earlier run; the answer cell no longer defines it."""
    _notebook(folder, "import numpy as np\n")
    assert public_checks("softmax", _kernel(SOLUTION)) == 0.0
    assert "softmax is defined in your kernel but not in the answer cell" in _said(capsys.readouterr().out)


def test_an_unsaved_edit_is_not_graded_and_the_note_says_save(folder, capsys):
    """What counts is the saved answer cell: grading the kernel's newer version would be a guess."""
    _notebook(folder, STUB)  # saved before the student wrote the body
    assert public_checks("softmax", _kernel(SOLUTION)) == 0.0
    assert "save the notebook (Ctrl+S)" in _said(capsys.readouterr().out)


def test_a_name_from_another_cell_is_named(folder, capsys):
    body = SOLUTION.replace("import numpy as np\n", "")
    _notebook(folder, body)
    assert public_checks("softmax", _kernel("import numpy as np\n", body)) == 0.0
    assert "np is defined in another cell of your notebook, not in the answer cell" in _said(capsys.readouterr().out)


def test_the_notebook_the_kernel_runs_is_preferred(folder, monkeypatch, capsys):
    _notebook(folder, STUB)  # the original, untouched
    copy = _notebook(folder, SOLUTION, name="softmax-Copy1.ipynb")
    monkeypatch.setenv("JPY_SESSION_NAME", str(copy))
    assert public_checks("softmax", _kernel(SOLUTION)) == FULL


def _run_in_a_kernel(folder, saved, run):
    """Save a notebook whose answer cell holds ``saved`` (a scratch cell and the check after it), then
    run it in a real kernel with the cells' sources ``run`` in place of them; the check cell's output."""
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    check = 'from graders.grading.notebook import public_checks\npublic_checks("softmax", globals())'
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (*saved, check)])
    nb.cells[0].metadata["nbgrader"] = {"grade_id": "softmax-answer", "solution": True, "grade": False,
                                        "locked": False, "schema_version": 3}
    nbformat.write(nb, folder / "softmax.ipynb")
    for cell, source in zip(nb.cells, run):
        cell.source = source  # edited after saving, where ``run`` differs from ``saved``
    km = KernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))
    nbclient.NotebookClient(nb, km=km, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    return _said("".join(o.get("text", "") for o in nb.cells[-1].outputs))


NOTE = "softmax in your kernel is not the softmax of your answer cell"
WRONG = SOLUTION.replace("np.exp(z - m)", "np.exp(z - m) + 0.5")  # every weight off, but runs


def test_in_a_real_kernel_only_the_answer_cell_counts(folder):
    out = _run_in_a_kernel(folder, (STUB, SOLUTION), (STUB, SOLUTION))
    assert f"Public checks of softmax: 0/{FULL:g} points" in out
    assert NOTE in out


def test_in_a_real_kernel_a_right_answer_saved_and_run_gets_full_marks_and_no_note(folder):
    """IPython compiles a cell a statement at a time, so on 3.11 its np.exp(...) is other bytecode
    than the cell's compiled whole: that alone used to raise the note for every student."""
    out = _run_in_a_kernel(folder, (SOLUTION, ""), (SOLUTION, ""))
    assert f"Public checks of softmax: {SHOWN}" in out
    assert "Note:" not in out and NOTE not in out


def test_in_a_real_kernel_a_wrong_answer_saved_and_run_loses_marks_and_gets_no_note(folder):
    out = _run_in_a_kernel(folder, (WRONG, ""), (WRONG, ""))
    assert "Public checks of softmax:" in out and SHOWN not in out
    assert NOTE not in out


def test_in_a_real_kernel_an_answer_changed_after_saving_gets_the_note(folder):
    out = _run_in_a_kernel(folder, (WRONG, ""), (SOLUTION, ""))  # fixed in the kernel, the fix not saved
    assert SHOWN not in out
    assert NOTE in out and "save the notebook (Ctrl+S)" in out


def test_a_notebook_larger_than_the_grading_reads_is_not_read_and_says_so(folder, capsys):
    path = _notebook(folder, SOLUTION)
    with open(path, "r+b") as f:
        f.truncate(17 << 20)  # sparse: past the 16 MB that the real grading reads (classroom/nbgrader/nbsubmit.py)
    points = public_checks("softmax", _kernel(SOLUTION))
    out = capsys.readouterr().out
    assert points == 0.0 and "your notebook is larger than 16 MB" in out


def test_an_answer_cell_nested_too_deeply_to_parse_is_a_message_not_a_traceback(folder, capsys):
    _notebook(folder, "x" + "[0]" * 100_000 + "\n")
    points = public_checks("softmax", _kernel())
    out = capsys.readouterr().out
    assert points == 0.0 and "your answer cell raised RecursionError" in out
