"""attn-grade list: the exercises in teaching order, with the learner's progress.

Each line shows the status from the last check of that exercise in this
folder (✓ full marks, ◐ some points, ✗ none yet, · never checked), its
points and the lesson that prepares it; the list ends with the next
exercise to work on. The points are those of the checks this copy can run:
in a student's copy (no hidden checks) the public ones only.
"""

from __future__ import annotations

import ast
import shutil
from functools import lru_cache
from pathlib import Path

from .. import registry
from .hint import hints_of, lesson_number, lesson_words
from .name import COMMAND
from .state import State
from .term import fit
from .where import SLUGS, find_folder, shown

PACKAGE = Path(__file__).resolve().parents[1]
GREEN, YELLOW, RED, DIM, BOLD, RESET = "\033[32m", "\033[33m", "\033[31m", "\033[2m", "\033[1m", "\033[0m"


def has_hidden() -> bool:
    return (PACKAGE / "hidden").is_dir()


@lru_cache(maxsize=None)
def public_points(slug: str) -> float:
    """The points of graders/<slug>.py's checks, read from its source (no import: ``list`` stays instant)."""
    tree = ast.parse((PACKAGE / f"{slug}.py").read_text(encoding="utf-8"))
    total = 0.0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and getattr(dec.func, "id", "") == "check":
                    points = [k.value for k in dec.keywords if k.arg == "points"] or dec.args[1:2]
                    total += float(ast.literal_eval(points[0])) if points else 1.0
    return total


def out_of(slug: str) -> float:
    return registry.get(slug).points if has_hidden() else public_points(slug)


def next_slug(state: State) -> str | None:
    """The first exercise, in teaching order, not at full marks on the learner's numbers; None when all are."""
    return next((s for s in SLUGS if not state.done(s) or not on_own_numbers(state, s)), None)


def on_own_numbers(state: State, slug: str) -> bool:
    """Whether the last check of ``slug`` graded the numbers the learner's id gives (kit/variants.py)."""
    entry = state.last(slug)
    if entry is None or (state.student is None and not entry.get("variant")):
        return True  # no id and no variant: the exercise's own numbers (NumPy stays unloaded)
    from ..grading.folder import variant_of

    return entry.get("variant", 0) == variant_of(slug, state.student)


def next_words(state: State, folder: Path) -> str:
    """"next: attention — lesson 4 (course/lessons/...), then attn-grade check attention"."""
    slug = next_slug(state)
    if slug is None:
        return f"every exercise in {shown(folder)}/ is at full marks"
    return f"next: {slug} — read {lesson_words(slug, folder)}, then '{COMMAND} check {slug}'"


def register(sub) -> None:
    p = sub.add_parser("list", help="list the exercises, your progress and the lesson for each",
                       description="List the exercises in teaching order with your progress from your last "
                                   "checks (✓ full marks, ◐ partial, ✗ no points yet, · not checked yet), "
                                   "their points and the lesson that prepares each; then the next one to do.")
    p.add_argument("--dir", type=Path, help="your exercises folder (default: found from here)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(run=run, command_parser=p)


def run(parser, args) -> int:
    from .term import wants_color

    folder = args.dir or find_folder()
    state = State(folder, args.settings.cache) if folder is not None else None
    print(render(state, folder, color=wants_color(args)))
    return 0


def status(state: State | None, slug: str, folder: Path | None):
    """(mark, colour, points text, note) of one exercise."""
    total = out_of(slug)
    entry = state.last(slug) if state is not None else None
    if entry is None:
        return "·", DIM, f"–/{total:g}", ""
    note = " (edited since)" if folder is not None and state.changed_since(slug, folder / f"{slug}.py") else ""
    if not on_own_numbers(state, slug):
        note = " (on other numbers: check again)"
    if entry["points"] >= entry["max"] > 0:
        return "✓", GREEN, f"{entry['points']:g}/{entry['max']:g}", note
    if entry["points"] > 0:
        return "◐", YELLOW, f"{entry['points']:g}/{entry['max']:g}", note
    return "✗", RED, f"0/{entry['max']:g}", note


def render(state: State | None, folder: Path | None, *, color: bool = False) -> str:
    def paint(text, code):
        return f"{code}{text}{RESET}" if color else text

    where = f"in {shown(folder)}/" if folder is not None else "(no exercises/ folder found here)"
    lines = [paint(f"Exercises {where}", BOLD)]
    rows = [(i, e, *status(state, e.slug, folder)) for i, e in enumerate(registry.EXERCISES, 1)]
    slug_width = max(len(e.slug) for e in registry.EXERCISES)
    points_width = max(len(row[4]) for row in rows)  # "–/1.5", "13.5/14": the column as wide as its widest
    for i, e, mark, code, points, note in rows:
        n = lesson_number(hints_of(e.slug).lesson)
        row = f"  {i}. {paint(mark, code)} {e.slug:<{slug_width}}  {points:>{points_width}}  lesson {n}  {e.title}"
        if note and len(f"  {i}. {mark} {e.slug:<{slug_width}}  {points:>{points_width}}  lesson {n}  "
                        f"{e.title}{note}") > shutil.get_terminal_size().columns:
            row += "\n" + " " * 7 + paint(note.strip(), DIM)  # under the slug: the row stays whole
        elif note:
            row += paint(note, DIM)
        lines.append(row)
    if not has_hidden():
        lines.append(paint("  (points of the public checks: the hidden ones run when your instructor grades)", DIM))
    if state is not None and state.student:
        lines.append(fit(f"  Your own numbers, as student {state.student}: '{COMMAND} variant' shows them."))
    if state is not None:
        lines.append("")
        lines.append(fit(next_words(state, folder)))
    return "\n".join(lines)
