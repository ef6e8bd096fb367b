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
