"""attn-grade hint: the next hint for an exercise, and which lesson teaches each exercise.

Hints live beside the graders, in graders/hints/<slug>.md (so a student's copy
of the package carries them): a ``Lesson:`` line naming the notebook that
prepares the exercise, then one ``## Hint`` section per hint, in the order
they are shown, each with a ``See: <notebook> § <section heading>`` line
pointing to the part of a lesson that teaches it. A hint points the way; it
never gives the answer (the release's leak scan reads these files too).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import registry
from .name import COMMAND
from .state import State
from .where import SLUGS, Unknown, folder_or_refuse, refuse, resolve, shown

HINTS = Path(__file__).resolve().parents[1] / "hints"


@dataclass(frozen=True)
class Hint:
    text: str
    notebook: str
    section: str


@dataclass(frozen=True)
class Hints:
    lesson: str  # the notebook that prepares the exercise, e.g. 03_the_cat_sat.ipynb
    hints: tuple


@lru_cache(maxsize=None)
def hints_of(slug: str) -> Hints:
    """The hints of ``slug``, read from graders/hints/<slug>.md."""
    text = (HINTS / f"{slug}.md").read_text(encoding="utf-8")
    lesson = re.search(r"^Lesson:\s*(\S+)\s*$", text, re.M)
    if not lesson:
        raise ValueError(f"graders/hints/{slug}.md has no 'Lesson: <notebook>.ipynb' line (the lesson "
                         f"notebook's file name alone)")
    found = []
    for block in re.split(r"^## Hint\s*$", text, flags=re.M)[1:]:
        see = re.search(r"^See:\s*(\S+)\s*§\s*(.+?)\s*$", block, re.M)
        if not see:
            raise ValueError(f"graders/hints/{slug}.md: a hint without a 'See: <notebook> § <section>' line")
        body = (block[:see.start()] + block[see.end():]).strip()
        found.append(Hint(body, see.group(1), see.group(2)))
    return Hints(lesson.group(1), tuple(found))


def lesson_number(notebook: str) -> int | None:
    m = re.match(r"(\d+)_", notebook)
    return int(m.group(1)) if m else None


def lesson_path(notebook: str, folder: Path | None) -> str:
    """Where the learner finds ``notebook``: course/lessons/<notebook> beside their exercises folder."""
    if folder is not None:
        path = Path(folder).resolve().parent / "course" / "lessons" / notebook
        if path.is_file():
            return shown(path)
    return f"course/lessons/{notebook}"


def lesson_words(slug: str, folder: Path | None) -> str:
    """"lesson 3 (course/lessons/03_the_cat_sat.ipynb)"."""
    notebook = hints_of(slug).lesson
    n = lesson_number(notebook)
    return f"lesson {n} ({lesson_path(notebook, folder)})" if n else lesson_path(notebook, folder)


# ------------------------------------------------------------------ the verb
def register(sub) -> None:
    p = sub.add_parser(
        "hint", help="show the next hint for an exercise (each call, one more)",
        description="Show the next hint for an exercise: each call shows one more, up to the last. "
                    "Every hint names the lesson section that teaches it; none gives the answer. "
                    "How many you have seen is remembered for your exercises folder.")
    p.add_argument("exercise", nargs="?", metavar="EXERCISE",
                   help=f"slug, number from '{COMMAND} list' or file (default: the first exercise "
                        "not yet at full marks)")
    p.add_argument("--reset", action="store_true", help="start this exercise's hints (all, without EXERCISE) over")
    p.add_argument("--all", action="store_true", help="show every hint seen so far, not only the newest")
    p.add_argument("--dir", type=Path, help="your exercises folder (default: found from here)")
    p.set_defaults(run=run, command_parser=p)


def run(parser, args) -> int:
    folder = folder_or_refuse(parser, args.dir)
    state = State(folder, args.settings.cache)
    if args.reset and not args.exercise:
        state.data["hints"] = {}
        state.save()
        print("hints start over for every exercise")
        return 0
    try:
        slug = resolve(args.exercise, folder).slug if args.exercise else _current(state)
    except Unknown as exc:
        refuse(parser, str(exc))
    hints = hints_of(slug).hints
    if args.reset:
        state.set_hint_level(slug, 0)
        state.save()
        print(f"hints for {slug} start over: '{COMMAND} hint {slug}' shows the first")
        return 0
    level = min(state.hint_level(slug) + 1, len(hints))
    state.set_hint_level(slug, level)
    state.save()
    first = 1 if args.all else level
    for n in range(first, level + 1):
        print(render(slug, n, hints[n - 1], len(hints), folder))
    print(textwrap.fill(_footer(slug, level, len(hints)), 78, break_long_words=False, break_on_hyphens=False))
    return 0


def _current(state: State) -> str:
    """The first exercise not at full marks in the last checks (the first of all if none is)."""
    for slug in SLUGS:
        if not state.done(slug):
            return slug
    return SLUGS[-1]


def render(slug: str, n: int, hint: Hint, total: int, folder: Path | None) -> str:
    title = registry.get(slug).title
    body = "\n\n".join(textwrap.fill(" ".join(par.split()), 78, initial_indent="  ", subsequent_indent="  ")
                       for par in hint.text.split("\n\n"))
    where = lesson_path(hint.notebook, folder)
    section = hint.section.replace("$", "")  # the notebook's heading, without its LaTeX dollars
    read = textwrap.fill(f"Read: {where}, section \"{section}\"", 78, initial_indent="  ",
                         subsequent_indent="        ", break_long_words=False, break_on_hyphens=False)
    return f"Hint {n} of {total} for {slug} ({title})\n\n{body}\n\n{read}\n"


def _footer(slug: str, level: int, total: int) -> str:
    if level < total:
        return f"{total - level} more: '{COMMAND} hint {slug}' again · start over: --reset"
    return (f"That was the last hint for {slug}. '{COMMAND} check {slug}' shows what still fails; "
            f"'{COMMAND} hint {slug} --all' shows them all again.")
