"""How every command prints --help, the learner's and the instructor's alike."""

from __future__ import annotations

import argparse
import textwrap


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
