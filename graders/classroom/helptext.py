"""How the instructor's commands print --help: the description wrapped to the terminal, the
examples as written."""

from __future__ import annotations

import argparse
import textwrap


class Help(argparse.RawDescriptionHelpFormatter):
    """The description wrapped to the terminal, the examples as written, never a line broken at a
    hyphen ("attn-" then "grade"): cli/term.py's HelpFormatter, which classroom/ may not import."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:  # the examples
            return super()._fill_text(text, width, indent)
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)
