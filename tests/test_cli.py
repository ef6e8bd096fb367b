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


def test_a_misnamed_function_is_named_with_the_name_the_checks_call(tmp_path, capsys):
    source = (ROOT / "solutions" / "softmax.py").read_text(encoding="utf-8")
    (tmp_path / "softmax.py").write_text(source.replace("def softmax(", "def soft_max("), encoding="utf-8")
    code, out, _ = run(capsys, "check", "softmax", "--dir", str(tmp_path))
    assert code == 1 and "softmax is not defined in softmax.py; it defines soft_max: the checks call softmax" in out


def test_a_function_with_no_near_name_gets_no_guess(tmp_path, capsys):
    (tmp_path / "softmax.py").write_text("def weights(z, axis=-1):\n    return z\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "softmax", "--dir", str(tmp_path))
    assert code == 1 and "softmax is not defined in softmax.py" in out and "it defines" not in out


@pytest.mark.parametrize("argv, words", [
    (["check", "softmaxx"], "unknown exercise 'softmaxx'"),
    (["check", "--dir", "/no/such/folder"], "no such folder"),
    (["check", "--timeout", "0"], "positive number"),
    (["chek", "softmax"], "unknown command 'chek': did you mean 'check'?"),
    (["grde"], "did you mean 'grade'?"),
    (["frobnicate"], "unknown command 'frobnicate' (commands: list, check"),
])
def test_usage_errors_exit_two_with_a_named_cause(capsys, argv, words):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and words in capsys.readouterr().err


def test_the_console_script_is_installed_and_explains_itself():
    out = subprocess.run([sys.executable, "-m", "graders.cli", "check", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--dir" in out and "--json" in out and "hand_scores" in out


def _verbs(parser):
    return set(next(a for a in parser._actions if a.dest == "command").choices)


def test_a_learners_command_loads_none_of_the_instructors_tooling(tmp_path):
    """Loading classroom/ (batch grading, nbgrader) cost every check about 0.1 s."""
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    probe = ("import sys; from graders.cli import main; main(sys.argv[1:]); "
             "print(sorted(m for m in sys.modules if m.startswith('graders.classroom')))")
    for argv in (["list", "--dir", str(tmp_path)], ["check", "softmax", "--dir", str(tmp_path)]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "[]", f"{argv[0]} loaded {done.stdout.splitlines()[-1]}"


def test_the_verbs_a_parser_is_built_with():
    from graders.cli import INSTRUCTOR_VERBS, LEARNER_VERBS, build_parser

    assert _verbs(build_parser(["check"])) == set(LEARNER_VERBS)
    assert _verbs(build_parser([])) == set(LEARNER_VERBS) | set(INSTRUCTOR_VERBS)
    for verb in INSTRUCTOR_VERBS:  # each module registers the verb it is listed under, and only it
        assert _verbs(build_parser([verb, "--help"])) == set(LEARNER_VERBS) | {verb}


def test_the_help_names_instructor_commands_that_exist(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    from graders.cli import INSTRUCTOR_VERBS

    said = " ".join(capsys.readouterr().out.split("for instructors: ")[1].split())  # wrapped: one line again
    named = said.split(" (")[0].split(", ")
    assert sorted(named) == sorted(INSTRUCTOR_VERBS)
    for verb in named:
        with pytest.raises(SystemExit) as info:
            main([verb, "--help"])
        assert info.value.code == 0, f"attn-grade {verb} --help"
        assert f"usage: attn-grade {verb}" in capsys.readouterr().out
