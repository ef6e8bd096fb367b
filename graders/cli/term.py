"""The terminal: whether to colour, how to clear the screen, how wide a line may be, Ctrl-C."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import textwrap

CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, clear the scrollback


def wants_color(args) -> bool:
    """--color always, or auto on a terminal unless NO_COLOR is set."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                      and "NO_COLOR" not in os.environ)


def fit(text: str, hang: int = 2, stream=None) -> str:
    """``text`` wrapped at spaces to the terminal's width, as the reports are (grading/report.py),
    its continuation lines ``hang`` spaces in, never inside a 'quoted command'; as it is when
    nothing says how wide to be."""
    from ..grading.report import fit_lines

    return fit_lines(text, hang, stream, keep=QUOTED)


QUOTED = re.compile(r"'[^'\n]*'")  # a 'quoted command' stays on one line


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help with descriptions and epilogs wrapped to the terminal paragraph by
    paragraph, but blocks with indented lines (examples) kept as written; never a line
    broken at a hyphen (argparse's own would show "attn-" and then "grade")."""

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text, width, indent):
        blocks = []
        for block in text.split("\n\n"):
            lines = block.split("\n")
            if any(line.startswith(" ") for line in lines):
                blocks.append("\n".join(indent + line for line in lines))
            else:
                blocks.append(textwrap.fill(" ".join(lines), width, initial_indent=indent,
                                            subsequent_indent=indent, break_on_hyphens=False))
        return "\n\n".join(blocks)


class CtrlC:
    """Ctrl-C raises KeyboardInterrupt, as Python's own handler does, and is noted: Python drops an
    exception raised while the garbage collector runs a callback (Hypothesis has one), so the
    command asks ``check()`` at safe points, and stops there if it was pressed (main thread only)."""

    def __init__(self):
        self.pressed = False
        self.old = signal.signal(signal.SIGINT, self._pressed)

    def _pressed(self, signum, frame):
        self.pressed = True
        raise KeyboardInterrupt

    def check(self) -> None:
        if self.pressed:
            raise KeyboardInterrupt

    def close(self) -> None:
        signal.signal(signal.SIGINT, self.old)
