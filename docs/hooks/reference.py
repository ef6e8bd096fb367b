"""MkDocs hook (mkdocs.yml, ``hooks:``): what the site takes from the code at every build, never by hand.

    <!-- generated: commands -->   every attn-grade command and subcommand, from the parser the command
                                   itself builds (graders.cli.build_parser): usage, description, each
                                   argument with its help, the examples
    <!-- generated: settings -->   the one settings object (graders/grading/settings.py): each field of
                                   Settings, the environment variables Settings.from_environ reads for it
                                   and how, from its syntax tree (docs/hooks/settings_page.py)
    <!-- generated: exercises -->  the exercises in teaching order, from graders/registry.py
    <!-- generated: assignments -->  the nbgrader assignments and their notebooks, from the same list
    <!-- include: SECURITY.md -->  a file of the repository outside docs/, included as it is

A link from a page to ../SECURITY.md (which works on GitHub) becomes a link to the page that
includes it. tests/test_docs.py checks the generated pages against ``attn-grade CMD --help``
and against Settings.
"""

from __future__ import annotations

import argparse
import html
import posixpath
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(Path(__file__).parent) not in sys.path:  # the sibling module below
    sys.path.insert(0, str(Path(__file__).parent))
from settings_page import settings_markdown  # noqa: E402
WIDTH = 100  # columns of the usage lines, as on a wide terminal
COMMANDS = "<!-- generated: commands -->"
EXERCISES = "<!-- generated: exercises -->"
ASSIGNMENTS = "<!-- generated: assignments -->"
SETTINGS = "<!-- generated: settings -->"
INCLUDE = re.compile(r"<!-- include: ([\w./-]+) -->")
INCLUDED = {"SECURITY.md": "security.md"}  # a repository file -> the page that includes it


def on_page_markdown(markdown: str, page, config, files) -> str:
    if COMMANDS in markdown:
        markdown = markdown.replace(COMMANDS, commands_markdown())
    if SETTINGS in markdown:
        markdown = markdown.replace(SETTINGS, settings_markdown())
    if EXERCISES in markdown:
        markdown = markdown.replace(EXERCISES, exercises_markdown())
    if ASSIGNMENTS in markdown:
        markdown = markdown.replace(ASSIGNMENTS, assignments_markdown())
    markdown = INCLUDE.sub(lambda m: _included(m.group(1)), markdown)
    return _relink(markdown, page.file.src_uri)


def _included(name: str) -> str:
    text = (ROOT / name).read_text(encoding="utf-8")
    return re.sub(r"^#", "##", text, flags=re.M)  # its title under the page's own


def _relink(markdown: str, src_uri: str) -> str:
    """Links to a repository file that a page includes, made links to that page."""
    here = posixpath.dirname(src_uri)

    def swap(m):
        target, anchor = m.group(2), m.group(3) or ""
        name = posixpath.normpath(posixpath.join("docs", here, target))
        if name in INCLUDED:
            return f"{m.group(1)}({posixpath.relpath(INCLUDED[name], here or '.')}{anchor})"
        return m.group(0)

    return re.sub(r"(\]\s*)\(([^)#\s]+\.md)(#[^)\s]*)?\)", swap, markdown)


# ------------------------------------------------------------------ the exercises
def exercises_markdown() -> str:
    _import_project()
    from graders import registry

    rows = [f"| {n} | `{e.slug}` | {_cell(e.title)} | {', '.join(f'`{f}`' for f in e.functions)} | {e.points:g} |"
            for n, e in enumerate(registry.EXERCISES, 1)]
    return "| # | slug | title | functions you write | points |\n|---|---|---|---|---:|\n" + "\n".join(rows) + "\n"


def assignments_markdown() -> str:
    _import_project()
    from graders import registry

    rows = [f"| `{a}` | " + "; ".join(f"`{e.slug}` ({_cell(e.title)})" for e in registry.of_assignment(a))
            + f" | {sum(e.points for e in registry.of_assignment(a)):g} |" for a in registry.ASSIGNMENTS]
    return ("| assignment | notebooks, in order | points |\n|---|---|---:|\n"
            + "\n".join(rows) + "\n")


# ------------------------------------------------------------------ the command reference
def _import_project():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def command_parsers() -> list[tuple[int, argparse.ArgumentParser]]:
    """(depth, parser) for attn-grade itself (0) and every command and subcommand under it, in the
    order the command registers them; the instructor's commands included (argv names no verb)."""
    _import_project()
    from graders.cli import build_parser

    found = []

    def walk(parser, depth):
        found.append((depth, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub, depth + 1)

    walk(build_parser([]), 0)
    return found


def anchor(prog: str) -> str:
    """The id MkDocs gives a command's heading (its words joined by hyphens)."""
    return "-".join(prog.split())


def commands_markdown() -> str:
    from graders.cli import INSTRUCTOR_VERBS

    parts = []
    for depth, parser in command_parsers():
        words = parser.prog.split()
        whose = "An instructor's command." if depth and words[1] in INSTRUCTOR_VERBS else \
            "A learner's command." if depth == 1 else ""
        parts.append(_command(parser, "#" * min(2 + max(depth - 1, 0), 4), whose))
    return "\n\n".join(parts) + "\n"


def _formatter(parser):
    try:
        return parser.formatter_class(prog=parser.prog, width=WIDTH)
    except TypeError:
        return argparse.HelpFormatter(prog=parser.prog, width=WIDTH)


def _command(parser: argparse.ArgumentParser, level: str, whose: str = "") -> str:
    fmt = _formatter(parser)
    fmt.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    out = [f"{level} {parser.prog} {{#{anchor(parser.prog)}}}", *([f"*{whose}*"] if whose else []),
           "```text\n" + fmt.format_help().strip() + "\n```"]
    if parser.description:
        out.append(_text(parser.description))
    for group in parser._action_groups:
        rows = []
        for action in group._group_actions:
            if action.help == argparse.SUPPRESS:
                continue
            fmt = _formatter(parser)
            rows.append(f"| `{fmt._format_action_invocation(action)}` | "
                        f"{_cell(fmt._expand_help(action) if action.help else '')}"
                        f"{' (required)' if action.required and action.option_strings else ''} |")
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:  # the commands --help lists (with a help text)
                    rows.append(f"| `{choice.dest}` | {_cell(choice.help or '')} |")
        if rows:
            out.append(f"**{_cell(group.title or 'arguments')}**\n\n| argument | what it does |\n|---|---|\n"
                       + "\n".join(rows))
    if parser.epilog:
        out.append(_text(parser.epilog))
    return "\n\n".join(out)


def _escape(text: str) -> str:
    text = html.escape(text, quote=False)
    return re.sub(r"([\\`*_\[\]])", r"\\\1", text).replace("|", "&#124;")


def _cell(text: str) -> str:
    return _escape(" ".join(text.split()))


def _text(text: str) -> str:
    """A description or epilog: paragraphs as prose, blocks with indented lines (examples) as written."""
    out = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        if not any(line.startswith(" ") for line in lines):
            out.append(_cell(block))
            continue
        lead = 0
        while not lines[lead].startswith(" "):
            lead += 1
        if lead:
            out.append(_cell(" ".join(lines[:lead])))
        out.append("```text\n" + textwrap.dedent("\n".join(lines[lead:])) + "\n```")
    return "\n\n".join(out)
