"""What a student's function prints is shown under the check it failed: its last lines, bounded.

The worker keeps the tail of each call's standard output (worker.Printed); the
parent keeps the last lines of the answer it interpreted last
(submission.printed_tail) and the engine adds them to a failed check's message.
"""

from __future__ import annotations

import pytest

from graders.grading.engine import ROOT, grade_file
from graders.grading.notebook import grade_namespace
from graders.sandbox.submission import PRINTED_CHARS, PRINTED_LINES
from graders.sandbox.inside.worker import Printed

SOLUTION = (ROOT / "solutions" / "softmax.py").read_text(encoding="utf-8")
HEADER = "your code printed (last lines of that call):"

# softmax without the maximum subtracted: only the large-entries check fails
UNSTABLE = '''
import numpy as np

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    {body}
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''


def _grade(tmp_path, source, **kw):
    path = tmp_path / "softmax.py"
    path.write_text(source, encoding="utf-8")
    return grade_file("softmax", path, **kw)


def _by_name(result):
    return {c.name: c for c in result.checks}


def test_the_failing_call_s_output_follows_the_failed_check(tmp_path):
    result = _grade(tmp_path, UNSTABLE.format(body='print("largest entry:", x.max())'))
    failed = [c for c in result.checks if not c.passed]
    assert [c.name for c in failed] == ["stays finite and sums to 1 for entries as large as ±1e4"]
    # the counterexample is [[10000, 0, -10000]]: the line printed is that call's own
    assert failed[0].message.endswith(f"{HEADER}\n  | largest entry: 10000.0")
    assert all(HEADER not in c.message for c in result.checks if c.passed)


def test_only_the_last_lines_are_shown_each_cut_short(tmp_path):
    body = 'for i in range(5000): print(i, "#" * 300 if i == 4999 else "")'
    message = _by_name(_grade(tmp_path, UNSTABLE.format(body=body)))["stays finite and sums to 1 for entries as large as ±1e4"].message
    shown = message.split(HEADER + "\n")[1].splitlines()
    assert len(shown) <= PRINTED_LINES
    assert shown[-1].startswith("  | 4999 ###") and len(shown[-1]) <= 200 + len("  | ")
    assert shown[0] == f"  | {5000 - len(shown)} "
    assert sum(len(s) for s in shown) <= PRINTED_CHARS + len(shown) * len("  | ")


def test_terminal_escapes_in_printed_text_are_shown_escaped(tmp_path):
    message = _grade(tmp_path, UNSTABLE.format(body=r'print("\x1b]52;c;aGk=\x07 \x1b[8mhidden")')).checks[5].message
    assert "\x1b" not in message and "\x07" not in message
    assert r"\x1b[8mhidden" in message


def test_printing_changes_no_grade_and_a_pass_shows_nothing(tmp_path):
    noisy = SOLUTION + "\n\n_quiet = softmax\n\n\ndef softmax(z, axis=-1):\n    print('hello')\n    return _quiet(z, axis)\n"
    result = _grade(tmp_path, noisy)
    assert result.points == result.max_points
    assert all(HEADER not in c.message for c in result.checks)


def test_a_call_that_prints_nothing_shows_no_output_of_an_earlier_call(tmp_path):
    # prints only for small inputs: the failing call (large entries) printed nothing itself
    body = 'print("small") if abs(x).max() < 100 else None'
    message = _by_name(_grade(tmp_path, UNSTABLE.format(body=body)))["stays finite and sums to 1 for entries as large as ±1e4"].message
    assert HEADER not in message


@pytest.mark.parametrize("body", ["import sys; sys.stdout = None", "import sys; sys.stdout = open('/dev/null', 'w')"])
def test_a_call_that_replaces_stdout_leaves_the_next_call_s_output_intact(tmp_path, body):
    source = UNSTABLE.format(body='print("entry", x.max())') + f"\n\ndef clobber():\n    {body}\n"
    assert "largest" not in source
    result = _grade(tmp_path, source)
    assert "  | entry 10000.0" in _by_name(result)["stays finite and sums to 1 for entries as large as ±1e4"].message


def test_cached_and_live_grades_show_the_same_output(tmp_path):
    source = UNSTABLE.format(body='print("shape", x.shape, "sum", float(np.nansum(x)))')
    replayed = _grade(tmp_path, source)
    live = _grade(tmp_path, source, replay=False)
    assert [c.message for c in replayed.checks] == [c.message for c in live.checks]
    assert any(HEADER in c.message for c in live.checks)


def test_the_notebook_s_checks_show_the_output_too():
    namespace = {}
    exec(compile(UNSTABLE.format(body='print("largest entry:", x.max())'), "cell", "exec"), namespace)
    result = grade_namespace("softmax", namespace, hidden=False)
    message = _by_name(result)["stays finite and sums to 1 for entries as large as ±1e4"].message
    assert message.endswith(f"{HEADER}\n  | largest entry: 10000.0")


def test_the_worker_keeps_only_the_tail_and_still_forwards_everything(capsys):
    with Printed() as printed:
        print("a" * 5000)
        print("end")
    assert printed.text.endswith("a\nend\n") and len(printed.text) == 2000
    assert capsys.readouterr().out == "a" * 5000 + "\nend\n"


def test_with_stdout_set_to_none_printing_with_flush_changes_nothing(tmp_path):
    quiet = "import sys\nsys.stdout = None\n\n" + SOLUTION + (
        "\n\n_plain = softmax\n\n\ndef softmax(z, axis=-1):\n    print('debug', flush=True)\n    return _plain(z, axis)\n")
    result = _grade(tmp_path, quiet)
    assert result.points == result.max_points, [c.message for c in result.checks if not c.passed]
    assert all(HEADER not in c.message for c in result.checks)


def test_printed_commas_and_brackets_are_not_counted_as_values_of_the_answer(tmp_path):
    source = (ROOT / "solutions" / "multi_head.py").read_text(encoding="utf-8")
    names = [line[4:line.index("(")] for line in source.splitlines() if line.startswith("def ")]
    noisy = source  # the reference, each function printing 1999 commas
    noisy += "".join(f"\n\n_{n} = {n}\n\n\ndef {n}(*a, **k):\n    print(',' * 1999)\n    return _{n}(*a, **k)\n"
                     for n in names if not n.startswith("_"))
    path = tmp_path / "multi_head.py"
    path.write_text(noisy, encoding="utf-8")
    result = grade_file("multi_head", path)
    assert result.points == result.max_points, [c.message for c in result.checks if not c.passed]


@pytest.mark.parametrize("brk", ["\\x0b", "\\x0c", "\\r", "\\u2028", "\\x1c"])
def test_no_kind_of_line_break_shows_more_than_the_last_lines(tmp_path, brk):
    message = _by_name(_grade(tmp_path, UNSTABLE.format(body=f'print("{brk}" * 600 + "last")')))[
        "stays finite and sums to 1 for entries as large as ±1e4"].message
    shown = message.split(HEADER + "\n")[1].splitlines()
    assert 1 <= len(shown) <= PRINTED_LINES and shown[-1] == "  | last"
