"""The learner's terminal: whether to colour, how to clear the screen, Ctrl-C; lines wrapped as the
reports are (terminal/wrap.py), never inside a 'quoted command'."""

from __future__ import annotations

import os
import re
import signal
import sys

from ..terminal.wrap import fit_lines

CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, clear the scrollback


def wants_color(args) -> bool:
    """--color always, or auto on a terminal unless NO_COLOR is set."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                      and "NO_COLOR" not in os.environ)


def fit(text: str, hang: int = 2, stream=None) -> str:
    """``text`` wrapped at spaces to the terminal's width, as the reports are (terminal/wrap.py),
    its continuation lines ``hang`` spaces in, never inside a 'quoted command'; as it is when
    nothing says how wide to be."""
    return fit_lines(text, hang, stream, keep=QUOTED)


QUOTED = re.compile(r"'[^'\n]*'")  # a 'quoted command' stays on one line


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
