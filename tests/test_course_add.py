"""``attn-grade course add`` and ``course new --exact`` on the command line (graders/classroom/authoring/coursescaffold.py):
add edits exactly the files it names in a copy of the project (--root), says what it wrote, and writes nothing
when refused; the options reach scaffold.new and scaffoldadd.add as lists of names."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHANGED = ("exercises/rope.py", "solutions/rope.py", "graders/rope.py", "graders/hidden/rope.py",
           "graders/registry.py", "docs/contract.md")


def _project(tmp: Path) -> Path:
    """A copy of what the scaffold reads and writes: the package, stubs, solutions, contract and lessons."""
    root = tmp / "project"
    for d in ("graders", "exercises", "solutions", "course/lessons"):
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "contract.md", root / "docs" / "contract.md")
    return root


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root), "ATTN_GRADE_CACHE": "off", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "graders.cli", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)


def _files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def test_course_add_has_its_help():
    shown = _cli(ROOT, "course", "add", "--help")
    assert shown.returncode == 0, shown.stderr
    for words in ("usage: attn-grade course add", "--functions F,G", "--exact G", "--root DIR",
                  "attn-grade course add rope --functions unrotate"):
        assert words in shown.stdout, words
    listed = _cli(ROOT, "course", "--help")
    assert listed.returncode == 0 and all(f"    {a} " in listed.stdout for a in ("build", "new", "add")), listed.stdout


def test_course_add_writes_the_files_it_names_and_only_those(tmp_path):
    root = _project(tmp_path)
    made = _cli(root, "course", "new", "rope", "--title", "Rotary position embeddings", "--assignment",
                "part3_attention", "--functions", "rotate", "--root", str(root))
    assert made.returncode == 0, made.stderr
    before = _files(root)
    refused = _cli(root, "course", "add", "nope", "--functions", "g", "--root", str(root))
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout
    assert refused.stderr.startswith('attn-grade course add: graders/registry.py has no Exercise("nope"'), refused.stderr
    assert _files(root) == before
    added = _cli(root, "course", "add", "rope", "--functions", "unrotate, angle", "--exact", "angle", "--root",
                 str(root))
    assert added.returncode == 0, added.stderr
    lines = added.stdout.splitlines()
    assert lines[0].startswith("rope: unrotate, angle added (4 points: one public and one hidden check each); "
                               "the registry says 6 points now."), added.stdout
    assert [line for line in lines if line.startswith("wrote ")] == [f"wrote {rel}" for rel in CHANGED]
    after = _files(root)
    assert sorted(rel for rel in after if after[rel] != before.get(rel)) == sorted(CHANGED)
    assert 'Exercise("rope", "Rotary position embeddings", 6, ("rotate", "unrotate", "angle"), "part3_attention")' \
        in after["graders/registry.py"]
    assert "def unrotate(x: np.ndarray) -> np.ndarray:" in after["exercises/rope.py"]
    assert "def angle():" in after["exercises/rope.py"] and "\nimport sympy\n" in after["solutions/rope.py"]
    assert '"unrotate": (' in after["graders/rope.py"] and "def angle_exact(sub, ref):" in after["graders/rope.py"]
    assert "def unrotate_agrees(sub, ref):" in after["graders/hidden/rope.py"]
    assert "- `unrotate(x: np.ndarray) -> np.ndarray`" in after["docs/contract.md"]
    assert "- `angle()`" in after["docs/contract.md"]


@pytest.mark.parametrize("verb", ["new", "add"])
def test_the_options_reach_the_scaffold_as_names(verb, monkeypatch, tmp_path):
    """--functions and --exact, comma-separated with spaces or a trailing comma, arrive as lists of names."""
    from graders.classroom.authoring import scaffold, scaffoldadd
    from graders.cli import main

    seen = {}

    def record(root, *args, exact=()):
        seen.update(root=root, args=args, exact=exact)
        return []

    monkeypatch.setattr(scaffold, "new", record)
    monkeypatch.setattr(scaffoldadd, "add", record)
    more = ["--title", "T", "--assignment", "part3_attention"] if verb == "new" else []
    assert main(["course", verb, "rope", *more, "--functions", "rotate, angle,", "--exact", "angle",
                 "--root", str(tmp_path)]) == 0
    assert seen["root"] == tmp_path and seen["exact"] == ["angle"] and seen["args"][-1] == ["rotate", "angle"]
    assert seen["args"][0] == "rope" and (verb == "add" or seen["args"][1:3] == ("T", "part3_attention"))
