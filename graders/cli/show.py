"""attn-grade show: results.json files (from grade or check --json) as the text report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..grading.results import ExerciseResult, clean
from .name import COMMAND
from .term import HelpFormatter


def register(sub) -> None:
    shw = sub.add_parser(
        "show", formatter_class=HelpFormatter,
        help="print the feedback in results.json files as a readable report",
        description=f"Render results.json files written by 'attn-grade grade' (or 'check --json') "
                    f"as the same text report '{COMMAND} check' prints.")
    shw.add_argument("files", nargs="+", type=Path, metavar="RESULTS_JSON",
                     help="one or more results.json files (a student's feedback), each shown in turn")
    shw.add_argument("--only-failed", action="store_true",
                     help="list only the checks that lost points (and your instructor's comments, always)")
    shw.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                     help="colour the report: always, never, or auto (on a terminal, unless NO_COLOR is set)")
    shw.set_defaults(run=run, command_parser=shw)


def run(parser, args) -> int:
    from ..grading.report import render_text
    from ..grading.results import from_gradescope
    from .term import wants_color

    color = wants_color(args)
    for path in args.files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            results = from_gradescope(data)
            comments = _comments(data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"{path}: not a readable results.json ({exc})")
        if args.only_failed:  # an instructor's comment is worth no points, so "passes": it shows all the same
            results = [_Failed.of(r, comments.get(r.exercise, ())) for r in results]
        if len(args.files) > 1:
            print(f"== {path} ==")
        print(render_text(results, color=color))
    return 0


def _comments(data: dict) -> dict:
    """exercise -> the positions among its checks of the instructor's comments in a results.json
    (classroom/comments.py marks their tests extra_data.comment), in from_gradescope's order."""
    found, count = {}, {}
    for t in data["tests"]:
        slug = clean(str(t["exercise"]))
        count[slug] = count.get(slug, 0) + 1
        if isinstance(t.get("extra_data"), dict) and "comment" in t["extra_data"]:
            found.setdefault(slug, set()).add(count[slug] - 1)
    return found


@dataclass
class _Failed(ExerciseResult):
    """An exercise as --only-failed shows it: the checks that lost points and the instructor's
    comments; its points are still those of all its checks."""
    every: list = field(default_factory=list)

    @classmethod
    def of(cls, r: ExerciseResult, comments) -> _Failed:
        shown = [c for i, c in enumerate(r.checks) if not c.passed or i in comments]
        kept = {f.name: getattr(r, f.name) for f in fields(ExerciseResult) if f.name != "checks"}
        return cls(checks=shown, every=list(r.checks), **kept)

    @property
    def points(self) -> float:
        return round(sum(c.points for c in self.every), 6)

    @property
    def max_points(self) -> float:
        return round(sum(c.max_points for c in self.every), 6)
