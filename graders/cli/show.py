"""attn-grade show: results.json files (from grade or check --json) as the text report."""

from __future__ import annotations

import json
from pathlib import Path

from .name import COMMAND
from ..terminal.help import HelpFormatter


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
            results = from_gradescope(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"{path}: not a readable results.json ({exc})")
        if len(args.files) > 1:
            print(f"== {path} ==")
        print(render_text(results, color=color, only_failed=args.only_failed))
    return 0
