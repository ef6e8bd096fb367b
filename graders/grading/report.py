"""The text report: each check with ✓ or ✗, points and feedback; totals.

Made to be read by a beginner: scores are rounded to two decimals (6.83/8);
a root cause shared by several checks (the same exception at the same line,
the same missing function) is said once, with "and 7 more checks stopped at
the same error"; long lines wrap at spaces to the terminal's width, never
inside a number, with continuation lines aligned under the text they
continue. Text shown on a page (a notebook's test cell, nbgrader's feedback
and formgrader, the class report) is wrapped at PAGE_WIDTH (terminal/wrap.py), the same on every
machine: unwrapped, an array's rows stood under a bracket 140-260 columns in
and the diagnosis after it ("It looks like ...") was off the page. Other output
that is not a terminal (a file, a pipe) is not wrapped.

A check SymPy could not settle (undecided, "?") waits for a person: its line,
its exercise's total and the summary say its points are pending a person's
check, never that they are lost.
"""

from __future__ import annotations

import re
import textwrap

from ..kit.outcomes import Outcome
from ..terminal.wrap import MIN_WIDTH, glued, terminal_width, unglued, wrap
from .results import points_text

GREEN, RED, YELLOW, BOLD, DIM, RESET = "\033[32m", "\033[31m", "\033[33m", "\033[1m", "\033[2m", "\033[0m"
MARKS = {Outcome.PASSED: "✓", Outcome.PARTIAL: "◐", Outcome.UNDECIDED: "?", Outcome.ERROR: "!",
         Outcome.FAILED: "✗"}


def _paint(text, code, color):
    return f"{code}{text}{RESET}" if color else text


def pts(x) -> str:
    """A score as every report shows it: rounded to two decimals, without trailing zeros (6.83, 8)."""
    return f"{round(x, 2):g}"


def _common_problem(r):
    """The reason, when every check says "not graded: <the same reason>"."""
    messages = {c.message for c in r.checks}
    if len(messages) == 1 and r.checks and r.checks[0].message.startswith("not graded: "):
        return r.checks[0].message[len("not graded: "):]
    return ""


def _cause(message: str) -> str:
    """What a failure stopped at: its first line, and the line of the student's file when one follows."""
    lines = message.splitlines()
    if not lines or len(lines[0]) < 20:
        return ""
    where = [ln for ln in lines[1:3] if re.match(r"\s*at line \d+", ln)]
    return "\n".join(lines[:1] + where[:1])


def _same_causes(checks) -> dict:
    """Index of each failed check whose cause an earlier check already stated -> that earlier check's index."""
    first, repeats = {}, {}
    for i, c in enumerate(checks):
        cause = _cause(c.message) if not c.passed and not c.waits else ""
        if cause and cause in first:
            repeats[i] = first[cause]
        elif cause:
            first[cause] = i
    return repeats


def _check_lines(c, color, width) -> list:
    code = {Outcome.PASSED: GREEN, Outcome.PARTIAL: YELLOW, Outcome.UNDECIDED: YELLOW}.get(c.outcome, RED)
    tag = "" if c.visibility == "public" else " (hidden)"
    mark = MARKS.get(c.outcome, "✗")
    if c.max_points == 0 and c.passed:  # worth nothing: a note (how a notebook was read, an instructor's comment)
        return wrap(f"• {c.name}{tag}", 2, width, hang=2) + _message_lines(c.message, width)
    waiting = ": pending a person's check" if c.waits else ""
    head = wrap(f"{mark} {c.name}{tag}  [{pts(c.points)}/{pts(c.max_points)}{waiting}]", 2, width, hang=2)
    head[0] = head[0].replace(mark, _paint(mark, code, color), 1)
    if color and tag:
        head = [h.replace(" (hidden)", _paint(" (hidden)", DIM, color)) for h in head]
    return head + _message_lines(c.message, width)


def _message_lines(message: str, width) -> list:
    """A check's message as shown: 6 spaces in, wrapped. The rows of an array shown after some
    words ("got [[1, 0],\n [0, 1]]") line up under its first row; a line the student's code
    printed ("  | ...") continues after its bar."""
    shown, open_at = [], []  # the columns of the brackets still open, as shown
    for text in message.splitlines():
        printed = text.startswith("  | ")
        own = len(text) - len(text.lstrip(" "))
        if not printed and open_at and own and text[own:own + 1] == "[" and 6 + own < open_at[0] + 1 \
                and (width is None or open_at[0] + len(_row(text[own:])) <= width):
            text = " " * (open_at[0] - 6) + text  # numpy's rows: one space per level, from the first "["
            own = len(text) - len(text.lstrip(" "))
        if printed or not own:
            lines = wrap(text, 6, width, hang=2 if printed else 0)
        else:  # a row of an array or a call where it stands; the words after it go on from the left
            lines = _wrap_from(text, own, width)
        for line in [] if printed else lines:
            for col, ch in enumerate(line):
                if ch == "[":
                    open_at.append(col)
                elif ch == "]" and open_at:
                    open_at.pop()
        shown += lines
    return shown


def _row(text: str) -> str:
    """The array row ``text`` starts with ("[0.1, 0.2]],"), without the words after it."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth <= 0 and ch == "]":
            end = i + 1
            while end < len(text) and text[end] in "]),;":
                end += 1
            return text[:end]
    return text


def _wrap_from(text: str, own: int, width) -> list:
    """A message line indented ``own`` spaces (past the 6 of every message line), wrapped with its
    first line where it stands and the lines after it 6 spaces in."""
    if width is None or 6 + len(text) <= width:
        return [" " * 6 + text]
    return unglued(textwrap.wrap(glued(text[own:]), width=max(width, MIN_WIDTH), initial_indent=" " * (6 + own),
                                  subsequent_indent=" " * 6, break_long_words=False, break_on_hyphens=False))


def _painted(lines, code, color):
    return [_paint(line, code, color) for line in lines]


def _exercise_lines(r, color, only_failed, width) -> list:
    lines = _painted(wrap(f"{r.exercise} — {r.title}", 0, width), BOLD, color)
    if getattr(r, "variant", 0):  # kit/variants.py: graded on the student's own numbers
        lines += wrap(f"graded on your own numbers, variant {r.variant}", 2, width, hang=2)
    problem = r.problem or _common_problem(r)
    if problem:  # nothing could be graded: say why once, not once per check
        lines += _painted(wrap(f"✗ {problem}", 2, width, hang=2), RED, color)
        return lines + [_exercise_total(r), ""]
    repeats = _same_causes(r.checks)
    for i, c in enumerate(r.checks):
        if (only_failed and c.passed and c.max_points) or i in repeats:  # notes (comments) always show
            continue
        lines += _check_lines(c, color, width)
        more = [r.checks[j] for j, first in repeats.items() if first == i]
        if more:
            names = "; ".join(m.name for m in more)
            got, of = sum(m.points for m in more), sum(m.max_points for m in more)
            text = (f"✗ and {len(more)} more check{'s' if len(more) > 1 else ''} stopped at the same error  "
                    f"[{pts(got)}/{pts(of)}]: {names}")
            more_lines = wrap(text, 2, width, hang=2)
            more_lines[0] = more_lines[0].replace("✗", _paint("✗", RED, color), 1)
            lines += more_lines
    return lines + [_exercise_total(r), ""]


def _pending(r) -> float:
    return getattr(r, "pending", 0.0)


def _exercise_total(r) -> str:
    """"  hand_scores: 7.5/8", and what of the rest waits for a person's check."""
    waiting = f", and {points_text(_pending(r))} wait for a person's check" if _pending(r) else ""
    return f"  {r.exercise}: {pts(r.points)}/{pts(r.max_points)}{waiting}"


def render_text(results, *, color=False, totals=True, summary_only=False, only_failed=False, seconds=None,
                width="auto") -> str:
    """The report; ``width``: wrap at this many columns, None for no wrapping, "auto" for the
    terminal's width when standard output is a terminal."""
    width = terminal_width() if width == "auto" else width
    lines = []
    if not summary_only:
        for r in results:
            lines += _exercise_lines(r, color, only_failed, width)
    if totals or summary_only:
        got = sum(r.points for r in results)
        out_of = sum(r.max_points for r in results)
        lines.append(_paint("Summary", BOLD, color))
        for r in results:
            mark = "✓" if r.points >= r.max_points else "?" if r.points + _pending(r) >= r.max_points else "✗"
            code = GREEN if mark == "✓" else YELLOW if mark == "?" else RED
            waiting = f"  ({pts(_pending(r))} pending a person's check)" if _pending(r) else ""
            lines.append(f"  {_paint(mark, code, color)} {r.exercise:<15} {pts(r.points):>5}/{pts(r.max_points)}"
                         f"{waiting}")
        took = f" in {seconds:.1f} s" if seconds is not None else ""
        lines.append(_paint(f"Total: {pts(got)}/{pts(out_of)}{took}", BOLD, color))
        pending = round(sum(_pending(r) for r in results), 6)
        if pending:  # not lost: a person is to check them
            lines += wrap(f"{points_text(pending)} wait for a person's check: SymPy could not settle an exact "
                          f"answer in time; they are pending, not lost", 0, width, hang=2)
    return "\n".join(lines)
