"""`attn-grade gradescope OUT.zip`: the archive's run_autograder, run in Gradescope's folder layout
(made in a temporary folder) on a right, a wrong and a broken submission, its results.json checked
against Gradescope's documented format. (`attn-grade export`: test_export.py.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest

from gradescope_format import SCHEMA
from graders import registry
from graders.cli import main
from graders.sandbox.inside import flat

ROOT = Path(__file__).resolve().parent.parent
PART3 = [e.slug for e in registry.of_assignment("part3_attention")]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    target = tmp_path_factory.mktemp("gs") / "autograder.zip"
    assert main(["gradescope", str(target), "--assignment", "part3_attention"]) == 0
    return target


def _autograde(archive: Path, tmp: Path, files: dict, env=(), prefix=()) -> dict:
    """Gradescope's layout: source/ (the archive unpacked), submission/, results/; then run_autograder
    (``env``: more environment variables; ``prefix``: a command to run it with)."""
    root = tmp / "autograder"
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    for name, text in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = {**os.environ, "ATTN_AUTOGRADER_ROOT": str(root), "ATTN_AUTOGRADER_PYTHON": sys.executable, **dict(env)}
    done = subprocess.run([*prefix, "bash", str(root / "run_autograder")], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(data, SCHEMA)
    return data


def _total(data: dict) -> float:
    """The score Gradescope gives: the sum of the tests' (results.json has no top-level score)."""
    return round(sum(t["score"] for t in data["tests"]), 6)


def test_the_archive_holds_what_gradescope_needs_at_its_root(archive):
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        mode = z.getinfo("run_autograder").external_attr >> 16
    assert {"setup.sh", "run_autograder", "autograder.json", "requirements.txt"} <= names
    assert "attn/graders/hidden/softmax.py" in names and "attn/solutions/softmax.py" in names
    assert mode & 0o111, "run_autograder must be executable"
    assert not [n for n in names if "__pycache__" in n]


def test_a_right_submission_gets_every_point(archive, tmp_path):
    files = {f"{s}.py": (ROOT / "solutions" / f"{s}.py").read_text() for s in PART3}
    data = _autograde(archive, tmp_path, files)
    points = sum(registry.get(s).points for s in PART3)
    assert _total(data) == points == sum(t["max_score"] for t in data["tests"])
    assert {t["tags"][0] for t in data["tests"]} == set(PART3)
    assert {t["visibility"] for t in data["tests"]} == {"visible", "after_published"}


def test_a_wrong_submission_loses_points_with_feedback(archive, tmp_path):
    files = {f"{s}.py": (ROOT / "solutions" / f"{s}.py").read_text() for s in PART3}
    files["softmax.py"] = (ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py").read_text()
    data = _autograde(archive, tmp_path, files)
    lost = [t for t in data["tests"] if t["score"] < t["max_score"]]
    assert lost and all(t["tags"] == ["softmax"] for t in lost)
    assert any("overflow" in t["output"] for t in lost)


def test_a_broken_submission_scores_zero_with_the_reasons(archive, tmp_path):
    data = _autograde(archive, tmp_path, {"softmax.py": "def softmax(z, axis=-1:\n", "notes.txt": "hi"})
    assert _total(data) == 0
    by = {t["tags"][0]: t["output"] for t in data["tests"]}
    assert "syntax error" in by["softmax"]
    assert "neither attention.py nor attention.ipynb was found" in by["attention"]


def test_notebooks_are_graded_by_their_answer_cells(archive, tmp_path):
    source = ROOT / "course" / "source" / "part3_attention"
    files = {f"sub/{s}.ipynb": (source / f"{s}.ipynb").read_text() for s in PART3}  # folders, as from GitHub
    data = _autograde(archive, tmp_path, files)
    assert _total(data) == sum(registry.get(s).points for s in PART3)


def test_hidden_visibility_is_the_instructors_choice(tmp_path):
    target = tmp_path / "a.zip"
    assert main(["gradescope", str(target), "--exercises", "softmax", "--hidden-visibility", "hidden"]) == 0
    data = _autograde(target, tmp_path, {"softmax.py": (ROOT / "solutions" / "softmax.py").read_text()})
    assert {t["visibility"] for t in data["tests"]} == {"visible", "hidden"}
    with pytest.raises(SystemExit):
        main(["gradescope", str(tmp_path / "b.zip"), "--exercises", "sofmax"])


# ------------------------------------------------------------------ what a student sees, and can read
# A softmax a little too sharp: every public check passes (8/8), the hidden comparison with the
# reference fails (0/2).
SHARP = """import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64) * 1.01
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""


@pytest.fixture(scope="module")
def softmax_only(tmp_path_factory):
    target = tmp_path_factory.mktemp("gs1") / "softmax.zip"
    assert main(["gradescope", str(target), "--exercises", "softmax"]) == 0  # hidden: after_published
    return target


def test_what_students_see_now_says_nothing_of_the_hidden_checks(softmax_only, tmp_path):
    data = _autograde(softmax_only, tmp_path, {"softmax.py": SHARP})
    hidden = [t for t in data["tests"] if t["visibility"] != "visible"]
    assert hidden and {t["visibility"] for t in hidden} == {"after_published"}
    assert [t["score"] for t in hidden] == [0] and _total(data) == 8  # the grade
    for t in hidden:
        name = t["name"].split(": ", 1)[1]
        assert name not in data["output"], f"the top-level output, always visible, names a hidden check: {name}"
    assert "/10" not in data["output"], f"the top-level output counts the hidden points: {data['output']!r}"
    # Gradescope hides the total while tests are hidden, if it sums them itself ("Autograder
    # Specifications", Controlling Test Case Visibility); a top-level score would override that sum.
    assert "score" not in data, f"a top-level score ({data.get('score')}) counts the hidden checks"


def test_the_archive_holds_only_the_chosen_solutions_and_hidden_checks_closed(softmax_only):
    with zipfile.ZipFile(softmax_only) as z:
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
    secret = sorted(n for n in modes if n.startswith(("attn/solutions/", "attn/graders/hidden/")))
    assert secret == ["attn/graders/hidden/", "attn/graders/hidden/__init__.py", "attn/graders/hidden/softmax.py",
                      "attn/solutions/", "attn/solutions/softmax.py"], f"the archive holds {secret}"
    opened = {n: oct(modes[n] & 0o777) for n in secret if modes[n] & 0o077}
    assert not opened, f"readable by others once unzipped: {opened}"
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111, "Gradescope runs these"


# Gradescope runs run_autograder as root without CAP_SYS_ADMIN: no namespaces, so no private root
# hides the grader's files from the student's code (which runs as the user nobody).
AS_GRADESCOPE = ["setpriv", "--bounding-set", "-sys_admin"] if os.geteuid() == 0 and shutil.which("setpriv") else []
# Without CAP_SYS_ADMIN each sandbox runs as a user of its own, which must be able to read Python
# (pyenv's under /root cannot be): .ci/settings runs these tests with Debian's Python as well.
CLOSED_PYTHON = flat.unreachable([p for p in sys.path if os.path.isdir(p)]) if AS_GRADESCOPE else ""
STEAL = """import os


def softmax(z, axis=-1):
    texts = []
    for rel in ("solutions/softmax.py", "graders/hidden/softmax.py"):
        try:
            texts.append(open(os.path.join({attn!r}, rel)).read())
        except OSError as exc:
            texts.append(type(exc).__name__)
    raise ValueError(" | ".join(texts))
"""


@pytest.mark.skipif(bool(CLOSED_PYTHON), reason=f"other users cannot read this Python: {CLOSED_PYTHON}")
def test_run_closes_the_graders_own_files_before_grading(softmax_only, open_folder):
    cache = open_folder / "cache"
    for folder in ("plans", "verdicts"):  # left open by an earlier, careless run
        (cache / folder).mkdir(parents=True)
        (cache / folder / "old.json").write_text("{}")
        (cache / folder).chmod(0o755)
        (cache / folder / "old.json").chmod(0o644)
    attn = open_folder / "autograder" / "source" / "attn"
    data = _autograde(softmax_only, open_folder, {"softmax.py": STEAL.format(attn=str(attn))},
                      env={"ATTN_GRADE_CACHE": str(cache)}, prefix=AS_GRADESCOPE)
    assert "ValueError" in data["tests"][0]["output"], "the stealing code did not run"
    for secret in ("Reference solution for the softmax exercise", "Hidden checks for softmax"):
        assert secret not in json.dumps(data), f"the student's code read {secret!r} and showed it"
    for top in (attn / "solutions", attn / "graders" / "hidden", cache / "plans", cache / "verdicts"):
        for path in [top, *top.rglob("*")]:
            mode = path.stat().st_mode & 0o777
            assert mode & 0o077 == 0, f"{path} is {oct(mode)} after run_autograder: others can read it"


def _layout(tmp: Path, exercises: list, files: dict) -> Path:
    """Gradescope's layout, unpacked by hand for run() in this process (the project's own graders grade)."""
    attn = tmp / "autograder" / "source" / "attn"
    for slug in exercises:
        for rel in (f"solutions/{slug}.py", f"graders/hidden/{slug}.py"):
            (attn / rel).parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / rel).is_file():
                shutil.copy(ROOT / rel, attn / rel)
    (attn.parent / "autograder.json").write_text(json.dumps({"exercises": exercises}))
    (attn.parent.parent / "submission").mkdir()
    for name, text in files.items():
        (attn.parent.parent / "submission" / name).write_text(text)
    return attn.parent.parent


def test_what_cannot_be_closed_is_told_the_instructor_and_grading_goes_on(tmp_path, monkeypatch):
    from graders.classroom.gradescope import gradescope, owner_only

    root = _layout(tmp_path, ["softmax"], {"softmax.py": SHARP})
    solutions, chmod = root / "source" / "attn" / "solutions", os.chmod

    def refused(path, mode, **kw):
        if Path(path) == solutions:
            raise PermissionError(1, "Operation not permitted", str(path))
        return chmod(path, mode, **kw)

    monkeypatch.setattr(owner_only.os, "chmod", refused)
    assert gradescope.run(root) == 0
    data = json.loads((root / "results" / "results.json").read_text())
    assert _total(data) == 8, "grading stopped when a folder could not be closed"
    assert data["extra_data"]["not_closed"] == [f"could not make {solutions} owner-only: Operation not permitted"]
    assert str(solutions) not in data["output"], "the student is told which of the grader's files are open"
    assert (root / "source" / "attn" / "graders" / "hidden").stat().st_mode & 0o077 == 0


def test_a_grader_that_fails_still_says_what_protected_it(tmp_path):
    from graders.classroom.gradescope import gradescope

    root = _layout(tmp_path, ["no_such_exercise"], {})
    assert gradescope.run(root) == 0
    data = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert "autograder failed" in data["output"] and data["score"] == 0
    extra = data["extra_data"]
    assert {"isolation", "not_isolated", "not_closed"} <= set(extra), f"results.json's extra_data: {extra}"
    # the sandbox starts (and says what protects it) before any exercise is graded
    assert extra["isolation"] and isinstance(extra["not_isolated"], list), extra
