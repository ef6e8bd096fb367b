"""`attn-grade course new SLUG` writes an exercise that the generic machinery grades at once:
its stub at zero and, once its solution is written, the solution at full marks (issue 23)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRADE = """
import json, sys
from graders import registry
from graders.grading.engine import checks_of, grade_file
e = registry.get("rope")
checks = checks_of("rope")
out = {"points": e.points, "sum": sum(c.spec.points for c in checks), "hidden": sorted(c.spec.hidden for c in checks)}
for what in ("exercises", "solutions"):
    r = grade_file("rope", f"{what}/rope.py")
    out[what] = [r.points, r.max_points, [c.outcome for c in r.checks]]
print(json.dumps(out))
"""


def _project(tmp: Path) -> Path:
    root = tmp / "project"
    for d in ("graders", "exercises", "solutions"):
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _run(root: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root), "ATTN_GRADE_CACHE": "off"}
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "graders.cli", *args]
    return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_a_new_exercise_is_graded_at_once(tmp_path):
    root = _project(tmp_path)
    made = _run(root, "course", "new", "rope", "--title", "Rotary position embeddings", "--assignment",
                "part3_attention", "--functions", "rotate", "--root", str(root))
    assert made.returncode == 0, made.stderr
    for rel in ("exercises/rope.py", "solutions/rope.py", "graders/rope.py", "graders/hidden/rope.py",
                "graders/hints/rope.md", "tests/mutants/rope", "tests/alternatives/rope"):
        assert (root / rel).exists() and f"wrote {rel}" in made.stdout.replace("/README.md", ""), rel
    solution = root / "solutions" / "rope.py"
    solution.write_text(solution.read_text().replace(
        'raise NotImplementedError("rotate (the reference solution) is not written yet")',
        "return np.asarray(x, dtype=np.float64)[::-1].copy()"))
    graded = _run(root, code=GRADE)
    assert graded.returncode == 0, graded.stderr
    got = json.loads(graded.stdout)
    assert got["points"] == got["sum"] == 2 and got["hidden"] == [False, True]
    assert got["exercises"][0] == 0 and got["exercises"][1] == 2  # the stub: zero, the grader intact
    assert "error" not in got["exercises"][2]
    assert got["solutions"][:2] == [2, 2]


def test_what_exists_is_never_overwritten_and_bad_names_are_refused(tmp_path):
    root = _project(tmp_path)
    before = (root / "graders" / "registry.py").read_text()
    for args, said in ((["softmax"], "already an exercise called softmax"), (["Rope"], "cannot be the slug"),
                       (["rope", "--functions", "class"], "cannot be a function")):
        extra = [] if "--functions" in args else ["--functions", "rotate"]
        proc = _run(root, "course", "new", *args, "--title", "T", "--assignment", "part3_attention", *extra,
                    "--root", str(root))
        assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    (root / "graders" / "hints" / "rope.md").write_text("mine\n")
    proc = _run(root, "course", "new", "rope", "--title", "T", "--assignment", "part3_attention", "--functions",
                "rotate", "--root", str(root))
    assert proc.returncode == 2 and "nothing was written: graders/hints/rope.md" in proc.stderr
    assert (root / "graders" / "registry.py").read_text() == before and not (root / "exercises" / "rope.py").exists()


EXACT = """
import json
from graders import registry
from graders.grading.engine import checks_of, grade_file
e = registry.get("rope")
out = {"points": e.points, "sum": sum(c.spec.points for c in checks_of("rope")), "functions": list(e.functions)}
for what in ("exercises/rope.py", "solutions/rope.py", "floats/rope.py"):
    r = grade_file("rope", what)
    out[what] = [r.points, r.max_points, {c.name: c.points for c in r.checks}]
print(json.dumps(out))
"""


def _fill(path: Path, bodies: dict) -> str:
    text = path.read_text()
    for name, body in bodies.items():
        text = text.replace(f'raise NotImplementedError("{name} (the reference solution) is not written yet")', body)
    assert "NotImplementedError" not in text
    return text


def _scaffold(root: Path, *args: str) -> subprocess.CompletedProcess:
    """``attn-grade course new|add ARGS --root ROOT``."""
    return _run(root, "course", *args, "--root", str(root))


def test_an_exact_answer_is_read_exactly_and_a_float_gets_half(tmp_path):
    """--exact: the function takes no arguments and returns a SymPy value; the public check reads it (a float
    gets half), the hidden one compares it with the reference's (docs/writing-a-grader.md, "Exact answers")."""
    root = _project(tmp_path)
    made = _scaffold(root, "new", "rope", "--title", "Rotary position embeddings", "--assignment",
                     "part3_attention", "--functions", "rotate,angle", "--exact", "angle")
    assert made.returncode == 0, made.stderr
    assert "import sympy" in (root / "exercises" / "rope.py").read_text()
    solution = root / "solutions" / "rope.py"
    solution.write_text(_fill(solution, {"rotate": "return np.asarray(x, dtype=np.float64)[::-1].copy()",
                                         "angle": "return sympy.pi / 4"}))
    (root / "floats").mkdir()
    (root / "floats" / "rope.py").write_text(solution.read_text().replace("return sympy.pi / 4",
                                                                          "return 0.7853981633974483"))
    graded = _run(root, code=EXACT)
    assert graded.returncode == 0, graded.stderr
    got = json.loads(graded.stdout)
    assert got["points"] == got["sum"] == 4
    assert got["exercises/rope.py"][0] == 0 and got["solutions/rope.py"][:2] == [4, 4]
    floats = got["floats/rope.py"][2]
    assert floats["angle is an exact value"] == floats["angle is exactly the reference's value"] == 0.5, floats


def test_add_gives_an_exercise_that_exists_another_function(tmp_path):
    """add: a stub and a solution function, a public and a hidden check, the DOMAIN entry and the registry's
    functions and points; refused, with nothing written, for an unknown exercise or a name taken already."""
    root = _project(tmp_path)
    assert _run(root, "course", "new", "rope", "--title", "Rotary position embeddings", "--assignment",
                "part3_attention", "--functions", "rotate", "--root", str(root)).returncode == 0
    before = {p: p.read_text() for p in root.rglob("*.py")}
    for args, said in ((["nope", "--functions", "g"], "no Exercise(\"nope\""),
                       (["rope", "--functions", "rotate"], "rotate is taken already")):
        proc = _scaffold(root, "add", *args)
        assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert {p: p.read_text() for p in root.rglob("*.py")} == before
    added = _scaffold(root, "add", "rope", "--functions", "unrotate,angle", "--exact", "angle")
    assert added.returncode == 0 and "the registry says 6 points now" in added.stdout, added.stderr
    assert '"unrotate": (' in (root / "graders" / "rope.py").read_text()
    solution = root / "solutions" / "rope.py"
    solution.write_text(_fill(solution, {"rotate": "return np.asarray(x, dtype=np.float64)[::-1].copy()",
                                         "unrotate": "return np.asarray(x, dtype=np.float64)[::-1].copy()",
                                         "angle": "return sympy.Rational(1, 2)"}))
    (root / "floats").mkdir()
    (root / "floats" / "rope.py").write_text(solution.read_text().replace("sympy.Rational(1, 2)", "0.5"))
    graded = _run(root, code=EXACT)
    assert graded.returncode == 0, graded.stderr
    got = json.loads(graded.stdout)
    assert got["points"] == got["sum"] == 6 and got["functions"] == ["rotate", "unrotate", "angle"]
    assert got["exercises/rope.py"][0] == 0 and got["solutions/rope.py"][:2] == [6, 6]
