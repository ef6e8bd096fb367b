"""The text report reads well: rounded scores, a shared cause said once, wrapped lines."""

from __future__ import annotations

import io
import re

from graders.grading.report import render_text
from graders.terminal.wrap import terminal_width
from graders.grading.results import CheckResult, ExerciseResult

RAISED = ("Your code raised ValueError: operands could not be broadcast together with shapes (3,2) (3,3)\n"
          "  at line 10: s = np.where(mask, s, -np.inf)\n  when calling attention([[0.5]], [[1]], [[2]])")
LONG = ("called softmax([[0.123456789, 1.5]], axis=0); the weights along axis 0 should sum to 1, but one sum is "
        "1.0412345678901234, which is not 1 and so on for quite a while 12345678901234567890 the end.")


def _result(*checks):
    r = ExerciseResult("softmax", "A numerically stable softmax")
    r.checks = [CheckResult("softmax", name, pts, of, "passed" if pts == of else "failed", msg, "public")
                for name, pts, of, msg in checks]
    return r


def test_scores_are_rounded_to_two_decimals():
    r = _result(("a", 2 / 3, 1, "partly"), ("b", 0.5, 0.5, ""))
    text = render_text([r], width=None)
    assert "[0.67/1]" in text and "softmax: 1.17/1.5" in text and "Total: 1.17/1.5" in text
    assert "0.666" not in text


def test_a_shared_cause_is_said_once():
    other = RAISED.replace("[[0.5]]", "[[0.25]]")  # another call, the same error at the same line
    r = _result(("one", 0, 1, RAISED), ("two", 0, 1, other), ("three", 0, 2, other), ("four", 0, 1, "different"))
    text = render_text([r], width=None)
    assert text.count("Your code raised ValueError") == 1
    assert "✗ and 2 more checks stopped at the same error  [0/3]: two; three" in text
    assert "four" in text and "different" in text


def test_a_different_line_is_a_different_cause():
    elsewhere = RAISED.replace("at line 10", "at line 12")
    text = render_text([_result(("one", 0, 1, RAISED), ("two", 0, 1, elsewhere))], width=None)
    assert text.count("Your code raised ValueError") == 2 and "more checks" not in text


def test_lines_wrap_at_spaces_and_continuations_line_up():
    text = render_text([_result(("a check whose name is long enough to need a second line of its own", 0, 1, LONG))],
                       width=60, totals=False)
    lines = text.splitlines()
    assert all(len(line) <= 60 or " " not in line.strip() for line in lines)
    numbers = re.findall(r"\d[\d.]*\d", LONG)
    flat = " ".join(line.strip() for line in lines)
    for n in numbers:
        assert n in flat.split() or any(n in word for word in flat.split()), n  # never split inside
    message = [line for line in lines if line.startswith("      ")]
    assert len(message) > 2 and all(line.startswith("      ") and line[6] != " " for line in message)
    head = lines[1:3]
    assert head[0].startswith("  ✗ a check") and head[1].startswith("    ") and head[1][4] != " "


def test_unwrapped_when_not_a_terminal():
    assert terminal_width(io.StringIO()) is None
    text = render_text([_result(("c", 0, 1, LONG))])  # pytest captures stdout: not a terminal
    assert LONG in text


def test_a_printed_line_that_wraps_continues_after_its_bar():
    printed = "  | debugging: the input has shape (1, 3) and its largest entry is 10000.0, which is fine"
    text = render_text([_result(("c", 0, 1, f"called softmax([[1]]); wrong\nyour code printed:\n{printed}"))],
                       width=60, totals=False)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("        | debugging"))
    assert lines[first + 1].startswith("          ") and lines[first + 1][10] != " "
    shown = [line for line in lines[first:] if line.startswith("        ")]
    assert " ".join(line.strip(" |") for line in shown).split() == printed.strip(" |").split()


def _lines_of(message, width=None):
    text = render_text([_result(("rows sum to 1", 0.0, 2.0, message))], totals=False, width=width)
    return [line for line in text.splitlines() if line.startswith("      ")]


def test_the_rows_of_an_array_after_some_words_line_up_under_its_first_row():
    lines = _lines_of("called softmax([[0, 1]]); got [[0.4223,      0],\n [0.1554, 0.4223]], which is wrong")
    assert lines[1].index("[0.1554") == lines[0].index("[0.4223")
    for width in (60, 40):  # wrapped: under the first row as it is shown
        lines = _lines_of("called softmax([[0, 1]]) and it gave [[0.4223, 0],\n [0.1554, 0.4223]]", width)
        row = next(i for i, line in enumerate(lines) if "[0.1554" in line)
        assert lines[row].index("[0.1554") == lines[row - 1].index("[0.4223")


def test_rows_already_in_place_and_printed_lines_stay_as_they_are():
    call = "called softmax(\n    [[0, 1],\n     [2, 5]],\n    axis=0); one sum is 1.38"
    assert _lines_of(call) == ["      " + line for line in call.splitlines()]
    printed = "got [[1, 0],\n [0, 1]]\nyour code printed (last lines of that call):\n  | [ not closed\n  | [x]"
    lines = _lines_of(printed)
    assert lines[-2:] == ["        | [ not closed", "        | [x]"]


def test_the_words_after_an_array_go_on_from_the_left_not_in_a_narrow_column():
    """At 80 columns the words after an array's last row were wrapped at that row's indent (36
    columns in): a column of one or two words per line, 25 lines of it."""
    message = ("called softmax(\n    [[   0, -inf],\n     [   0, -inf]]); rows of [[0.5,   0],\n"
               " [0.5,   0]] should sum to 1. It looks like the maximum is taken along the axis, but the "
               "sum over the whole array: divide by the sum along the axis instead (keepdims=True).")
    lines = _lines_of(message, 80)
    row = next(i for i, line in enumerate(lines) if "[0.5,   0]] should" in line)
    assert lines[row].index("[0.5,   0]]") == lines[row - 1].index("[0.5,   0],")  # still under its row
    assert all(len(line) <= 80 for line in lines)
    assert all(line.startswith(" " * 6) and not line.startswith(" " * 7) for line in lines[row + 1:])
    assert len(lines) <= row + 4, "\n".join(lines)


def test_a_row_too_wide_to_stand_under_its_bracket_keeps_its_own_place():
    message = "called attention(Q, K, V, mask=causal_mask(3)) and it gave [[1, 2],\n [3.14159265358979, 2.71828182]]"
    lines = _lines_of(message, 80)
    assert len(lines[0]) <= 80 and lines[0].endswith("[[1, 2],")  # the bracket stands at column 66
    assert lines[1] == "       [3.14159265358979, 2.71828182]]", "\n".join(lines)  # not broken in two


def test_a_row_of_an_array_in_mid_sentence_is_never_broken_at_80_columns():
    message = ("called softmax_percent([ 900,    0, -900], 1, scaled=False) and again with the scores "
               "[ 3.877, 14.905,  8.293]; got [0.0772, 0.7328,   0.19], which does not match the weights [  1.6, 0.697]")
    for width in (80, 60, 50):
        lines = _lines_of(message, width)
        assert max(len(line) for line in lines) <= width, lines
        joined = "\n".join(lines)
        for row in ("[ 900,    0, -900]", "[ 3.877, 14.905,  8.293]", "[0.0772, 0.7328,   0.19]", "[  1.6, 0.697]"):
            assert row in joined, f"{row} broken across lines:\n{joined}"
