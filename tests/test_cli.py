"""attn-grade check: exit status, text and JSON reports, and bad input."""

import json
import shutil
import subprocess
import sys

import pytest

from graders.cli import main
from graders.grading.engine import ROOT


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_reference_solution_exits_zero_with_full_marks(capsys):
    code, out, _ = run(capsys, "check", "softmax", "--dir", str(ROOT / "solutions"))
    assert code == 0
    assert "✓ returns a float64 array" in out and "Total: 10/10" in out


def test_stub_exits_one_and_says_not_written(capsys):
    code, out, _ = run(capsys, "check", "softmax", "--dir", str(ROOT / "exercises"))
    assert code == 1 and "not written yet" in out and "Total: 0/10" in out


def test_json_has_gradescope_shape_with_exercise_keys(capsys):
    code, out, _ = run(capsys, "check", "softmax", "--json", "--dir", str(ROOT / "exercises"))
    data = json.loads(out)
    assert code == 1 and data["score"] == 0 and data["tests"]
    for t in data["tests"]:
        assert {"name", "score", "max_score", "output", "visibility", "status", "exercise"} <= set(t)
        assert t["exercise"] == "softmax" and t["status"] == "failed"
        assert t["visibility"] in ("visible", "hidden")


def test_missing_and_broken_files_score_zero_and_others_are_still_graded(tmp_path, capsys):
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    (tmp_path / "attention.py").write_text("def attention(Q, K, V, mask=None)\n    pass\n")
    code, out, _ = run(capsys, "check", "softmax", "attention", "multi_head", "--json", "--dir", str(tmp_path))
    data = json.loads(out)
    by = {}
    for t in data["tests"]:
        by.setdefault(t["exercise"], []).append(t)
    assert code == 1
    assert all(t["status"] == "passed" for t in by["softmax"])
    assert all(t["score"] == 0 and "syntax error" in t["output"] for t in by["attention"])
    assert all(t["score"] == 0 and "multi_head.py was not found" in t["output"] for t in by["multi_head"])


@pytest.mark.parametrize("argv, words", [
    (["check", "softmaxx"], "unknown exercise 'softmaxx'"),
    (["check", "--dir", "/no/such/folder"], "no such folder"),
    (["check", "--timeout", "0"], "positive number"),
])
def test_usage_errors_exit_two_with_a_named_cause(capsys, argv, words):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and words in capsys.readouterr().err


def test_the_console_script_is_installed_and_explains_itself():
    out = subprocess.run([sys.executable, "-m", "graders.cli", "check", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--dir" in out and "--json" in out and "hand_scores" in out
