"""The integrity scan (graders/classroom/integrity/integrity.py) survives any file (issue 20, finding 6).

A line that never runs, nested 600 deep, once ended ``attn-grade grade`` with a
RecursionError after the gradebook was written: no integrity.json, and a class
report that said "None" while two students had handed in the same answer. Now
the scan reads within bounds, a file it cannot read becomes a flag on that
file, and the report says when no scan finished.
"""

import json
import shutil
import tracemalloc
from pathlib import Path

import pytest

from graders import registry
from graders.classroom.integrity import identical, integrity
from graders.cli import main

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = (ROOT / "solutions" / "softmax.py").read_text()
DEEP_LINE = "x" + "[0]" * 600 + ".y = 1\n"  # parses, and is nested deeper than ast.unparse can follow
DEEP = "\nif False:\n    " + DEEP_LINE  # never runs
IDENTICAL = ("ann", "softmax.py", "identical answers", "the same softmax answer as bob (")


def flags_of(found) -> set:
    return {(f.student, f.where, f.kind, f.detail) if not isinstance(f, dict)
            else (f["student"], f["where"], f["kind"], f["detail"]) for f in found}


def has(flags: set, flag: tuple) -> bool:
    """Whether ``flags`` hold ``flag``, whose detail may be the start of the flag's."""
    return any(f[:3] == flag[:3] and f[3].startswith(flag[3]) for f in flags)


def scanned(subs: Path, layout: str, release=None, exercises=("softmax",)) -> list:
    """integrity.scan's flags and the identical answers among what it read, as a grading without
    results finds them (copying.find adds the identical answers, with the results where there are)."""
    codes = {}
    found = integrity.scan(subs, layout, release, list(exercises), codes=codes)
    stubs = {slug: integrity.stub_texts(registry.get(slug), release) for slug in exercises}
    return found + identical.flags(codes, stubs)


def folders(root: Path, **files) -> Path:
    """SUBMISSIONS with one folder per student holding softmax.py with the given text."""
    for who, text in files.items():
        (root / who).mkdir(parents=True)
        (root / who / "softmax.py").write_text(text)
    return root


def the_class(root: Path) -> Path:
    copy = "# my own work\n" + SOLUTION.replace("    ", "  ")  # the same tokens as ann's
    return folders(root, ann=SOLUTION, bob=copy, carol=SOLUTION + DEEP)


def test_a_line_nested_600_deep_ends_nothing_and_hides_no_flag(tmp_path, capsys):
    out = tmp_path / "graded"
    argv = ["grade", str(the_class(tmp_path / "class")), "--out", str(out), "--no-progress",
            "--assignment", "part3_attention"]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert "ann softmax.py: identical answers: the same softmax answer as bob" in said
    flags = flags_of(json.loads((out / "integrity.json").read_text()))
    assert has(flags, IDENTICAL) and not [f for f in flags if f[0] == "carol"]
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    section = html.split("<h2>Integrity flags</h2>")[1].split("<h2")[0]
    assert "identical answers" in section and "None." not in section
    (out / "integrity.json").unlink()  # as after a scan that never finished
    assert main(["report", str(out)]) == 0
    section = (out / "report.html").read_text().split("<h2>Integrity flags</h2>")[1].split("<h2")[0]
    assert "Not scanned" in section and "None." not in section


def notebook(answer: str, *others: str) -> str:
    cells = [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "softmax-answer"}}, "source": answer}]
    cells += [{"cell_type": "code", "metadata": {}, "source": s} for s in others]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def submitted(root: Path, **notebooks) -> Path:
    for who, text in notebooks.items():
        (root / who / "part3_attention").mkdir(parents=True)
        (root / who / "part3_attention" / "softmax.ipynb").write_text(text)
    return root


def test_grading_one_student_into_a_new_out_flags_no_one_else(tmp_path, capsys):
    """ann and bob hand in the same answer; grading only carol must not name them, who have no results
    in OUT, and grading ann too then names her (bob still has none)."""
    out, subs = tmp_path / "graded", the_class(tmp_path / "class")
    argv = ["grade", str(subs), "--out", str(out), "--no-progress", "--assignment", "part3_attention"]
    assert main(argv + ["--student", "carol"]) == 0
    assert json.loads((out / "integrity.json").read_text()) == []
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith(f"Next: attn-grade report {out} writes")
    assert main(argv + ["--student", "ann"]) == 0
    flags = flags_of(json.loads((out / "integrity.json").read_text()))
    assert {f[0] for f in flags} == {"ann"} and has(flags, IDENTICAL)


def test_a_cell_nested_600_deep_outside_the_answer_cell_is_scanned(tmp_path):
    subs = submitted(tmp_path / "submitted", ann=notebook(SOLUTION), bob=notebook(SOLUTION),
                     carol=notebook(SOLUTION + "EXTRA = 1\n", DEEP_LINE, "import numpy as np\nnp.sum = sum\n"))
    flags = flags_of(scanned(subs, "nbgrader"))
    where = "part3_attention/softmax.ipynb"
    assert has(flags, ("ann", where, "identical answers", "the same softmax answer as bob ("))
    carol = {f[2:] for f in flags if f[0] == "carol"}
    assert ("outside the answer cell", "a cell defines x… (nested more than 50 levels deep)") in carol
    assert ("patches the grader", "outside the answer cell: assigns to np.sum") in carol


def test_a_failure_in_one_file_is_a_flag_on_that_file(tmp_path, monkeypatch):
    real = integrity.patches

    def fails_on_carol(source):
        if "CAROL" in source:
            raise RecursionError("maximum recursion depth exceeded")
        return real(source)

    monkeypatch.setattr(integrity, "patches", fails_on_carol)
    subs = the_class(tmp_path / "class")
    (subs / "carol" / "softmax.py").write_text(SOLUTION + "CAROL = 1\n")
    flags = flags_of(scanned(subs, "folders"))
    assert has(flags, IDENTICAL)
    assert ("carol", "softmax.py", "could not be scanned",
            "its code is nested too deeply for the scan; look at it yourself") in flags


def test_a_2gb_copy_of_the_checks_is_told_by_its_size_never_read(tmp_path):
    release = tmp_path / "release"
    (release / "part3_attention" / "attn_checks").mkdir(parents=True)
    (release / "part3_attention" / "attn_checks" / "softmax.py").write_text("CHECKS = 1\n")
    subs = submitted(tmp_path / "submitted", ann=notebook(SOLUTION), bob=notebook(SOLUTION + "EXTRA = 1\n"))
    shutil.copytree(release / "part3_attention" / "attn_checks", subs / "bob" / "part3_attention" / "attn_checks")
    (subs / "ann" / "part3_attention" / "attn_checks").mkdir()
    with open(subs / "ann" / "part3_attention" / "attn_checks" / "softmax.py", "wb") as f:
        f.truncate(2 << 30)  # 2 GB, sparse
    tracemalloc.start()
    try:
        flags = flags_of(integrity.scan(subs, "nbgrader", release, ["softmax"]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"the scan held {peak >> 20} MB"
    assert ("ann", "part3_attention/attn_checks", "attn_checks changed", "differs from the release: softmax.py") \
        in flags
    assert not [f for f in flags if f[0] == "bob"]


def test_a_file_longer_than_the_scan_reads_is_named(tmp_path):
    subs = folders(tmp_path / "class", ann=SOLUTION + "#" * integrity.MAX_SCANNED, bob=SOLUTION)
    flags = flags_of(integrity.scan(subs, "folders", None, ["softmax"]))
    assert ("ann", "softmax.py", "could not be scanned", "it holds more than 200,000 characters, more than any "
            "answer needs, so it was not read; look at it yourself") in flags


@pytest.mark.parametrize("cells", [1, 40])
def test_a_notebooks_other_cells_are_read_only_so_far(tmp_path, cells):
    chunk = "y = 1\n" + "#" * (integrity.MAX_SCANNED // 20)
    subs = submitted(tmp_path / "submitted", ann=notebook(SOLUTION, *[chunk] * cells))
    flags = flags_of(integrity.scan(subs, "nbgrader", None, ["softmax"]))
    unread = [f for f in flags if f[2] == "could not be scanned"]
    assert len(unread) == (cells > 20) and ("ann", "part3_attention/softmax.ipynb", "outside the answer cell",
                                            "a cell defines y") in flags


SEARCHER = SOLUTION + '''

def _find():
    import os, pathlib
    for top, _, names in os.walk("/"):
        for name in names:
            if name == "softmax.py" and "solutions" in top:
                exec(open(os.path.join(top, name)).read(), globals())
    list(pathlib.Path("/home").rglob("*.py"))
    open("/proc/self/maps").read()
'''


def test_a_search_for_the_solutions_is_flagged_and_honest_code_is_not(tmp_path):
    """Walking the file system, exec of what it finds, /proc: the sandbox stops them, and an
    instructor still wants to know (issue 22, item 7)."""
    found = integrity.scan(folders(tmp_path / "s", ann=SEARCHER, bob=SOLUTION), "folders")
    looked = {detail for who, _, kind, detail in flags_of(found) if kind == "looks around"}
    assert looked == {"searches the file system (os.walk)", "runs code it builds (exec)",
                      "searches the file system (.rglob)", "reads '/proc/self/maps'"}
    assert not [f for f in flags_of(found) if f[0] == "bob"]
    for slug in ("softmax", "attention", "multi_head", "saturation", "worked_example"):  # honest answers
        from graders.classroom.integrity.codescan import looks_around

        assert looks_around((ROOT / "solutions" / f"{slug}.py").read_text()) == []


def test_code_that_walks_frames_or_the_garbage_collector_is_flagged_and_right_code_is_not():
    """Issue 35, finding 3: the forgeries of "leaves its input unchanged" reach the worker's own functions
    through frames or gc; no answer needs either, and no right answer of the corpus is flagged."""
    from pathlib import Path

    from graders.classroom.integrity.codescan import patches

    forgeries = {
        "import sys\ng = sys._getframe(1).f_globals\ng['arguments_after'] = lambda a, k: None\n":
            "reaches into the running program (sys._getframe)",
        "import gc\nfor o in gc.get_referrers(len):\n    pass\n": "reaches into the running program (gc.get_referrers)",
        "import inspect\nf = inspect.currentframe()\n": "reaches into the running program (inspect.currentframe)",
        "def f(e):\n    return e.__traceback__.tb_frame.f_back\n": "reaches into the running program (.tb_frame)",
        "def softmax(z, axis=-1):\n    return softmax.__globals__\n": "reaches into the running program (.__globals__)",
    }
    for source, said in forgeries.items():
        assert said in patches(source), source
    root = Path(__file__).resolve().parents[1]
    right = [*root.glob("solutions/*.py"), *root.glob("tests/alternatives/*/*.py"), *root.glob("tests/corpus/*/*.py")]
    assert len(right) > 70
    flagged = {str(p.relative_to(root)): patches(p.read_text(encoding="utf-8")) for p in right}
    assert not {p: d for p, d in flagged.items() if any("running program" in x for x in d)}
