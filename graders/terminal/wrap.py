"""Text for a terminal and for a page: how wide, and where a line may break.

Long lines wrap at spaces, never inside a number, a short array row, a short
(expression) or a "name = value", with continuation lines aligned under the
text they continue. On a terminal the width is the terminal's; text shown on a
page (a notebook's test cell, nbgrader's feedback and formgrader, the class
report) is wrapped at PAGE_WIDTH, the same on every machine. Output that is not
a terminal (a file, a pipe) is not wrapped.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap

MIN_WIDTH = 40
PAGE_WIDTH = 76  # columns of text on a page: nbgrader's feedback shows 77 in a window 800 px wide


def terminal_width(stream=None):
    """The terminal's width for ``stream`` (stdout), or None when it is not a terminal."""
    stream = stream or sys.stdout
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return max(MIN_WIDTH, shutil.get_terminal_size((100, 24)).columns)


def fit_lines(text: str, hang: int = 2, stream=None, keep=None) -> str:
    """Each line of ``text`` wrapped to the terminal of ``stream`` (stdout; as it is when that is
    not a terminal), its continuation lines ``hang`` spaces further in, never inside what the
    pattern ``keep`` matches: what a command says at its end."""
    width = terminal_width(stream)
    return "\n".join(part for line in text.split("\n") for part in wrap(line, 0, width, hang, keep=keep))


def wrap(text: str, indent: int, width, hang: int = 0, keep=None) -> list:
    """``text`` indented by ``indent`` spaces, wrapped at spaces to ``width`` (None: not wrapped);
    continuation lines line up ``hang`` further in, under the text they continue. Never inside
    a short array row, a short (expression), or what the pattern ``keep`` matches."""
    lead = " " * indent
    if width is None or indent + len(text) <= width:
        return [lead + text]
    own = len(text) - len(text.lstrip(" "))  # a message line's own indent (arrays, calls) is kept
    return unglued(textwrap.wrap(glued(text.lstrip(" "), keep), width=max(MIN_WIDTH // 2, width - indent - own),
                                  break_long_words=False, break_on_hyphens=False, initial_indent=lead + " " * own,
                                  subsequent_indent=lead + " " * (own + hang))) or [lead]


_ROW = re.compile(r"\[[^\[\]\n]{0,38}\]")  # an array's innermost row, short enough to keep whole
_NBSP = "\u00a0"  # textwrap breaks at ASCII whitespace only
_NAMED = re.compile(r"(?<=\w) = (?=\[)")  # "got A = [[0.1, ...": never "got A" then "= [[0.1" below
_TERM = re.compile(r"\([^()\n]{0,24}\)")  # "e^(0 - 1)", "(n_heads, N, d_k)": never "e^(0" then "- 1)"
_VALUE = re.compile(r"[^\s(,]{1,12} = \([^()\n]{0,16}\)")  # "v₂ = (0, 4)": never "v₂" then "= (0, 4)"
# What ``wrap(..., keep=NAMED_NUMBER)`` keeps whole in a list of numbers: "v₁ = (5, 0)", "d_k = 2".
NAMED_NUMBER = re.compile(r"[^\s,(]+ = (?:\([^()]*\)|[^\s,;]+)")


def glued(text: str, keep=None) -> str:
    """``text`` with the spaces inside each short array row ("[ 1.6, 0.72]"), each short term in
    parentheses, what ``keep`` matches, and around the "=" that names an array ("A = [[") made
    unbreakable."""
    def glue(m):
        return m.group().replace(" ", _NBSP)

    for pattern in (_ROW, _VALUE, _TERM) + ((keep,) if keep is not None else ()):
        text = pattern.sub(glue, text)
    return _NAMED.sub(f"{_NBSP}={_NBSP}", text)


def unglued(lines: list) -> list:
    return [line.replace(_NBSP, " ") for line in lines]
