"""The terminal: whether to colour, and how to clear the screen."""

from __future__ import annotations

import os
import sys

CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, clear the scrollback


def wants_color(args) -> bool:
    """--color always, or auto on a terminal unless NO_COLOR is set."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                      and "NO_COLOR" not in os.environ)
