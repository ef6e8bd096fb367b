"""``attn-grade course new`` and ``attn-grade course add``: the scaffold's two actions of ``attn-grade course``.

course.py registers the command and calls ``register`` here for these two actions; what they write is
scaffold.py's (``new``: a new exercise's files) and scaffoldadd.py's (``add``: more functions for an
exercise that exists), each marked TODO where the author's words go (docs/writing-a-grader.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ... import registry
from ...terminal.help import HelpFormatter

ROOT = Path(__file__).resolve().parents[3]


def register(actions) -> None:
    """Add ``new`` and ``add`` to the actions of ``attn-grade course``."""
    n = actions.add_parser("new", help="write the files of a new exercise, to fill in (docs/writing-a-grader.md)",
                           description="Write a new exercise's stub, solution, grader, hidden checks, hints, "
                                       "mutants and alternatives folders, and its line in graders/registry.py, "
                                       "each marked TODO where your words go. Nothing that exists is overwritten.",
                           epilog="example:\n  attn-grade course new rope --title 'Rotary position embeddings' "
                                  "--assignment part3_attention --functions rotate",
                           formatter_class=HelpFormatter)
    n.add_argument("slug", help="the exercise's name everywhere: lower-case letters, digits and _")
    n.add_argument("--title", required=True, help="a short title, as the exercise table and the notebook show it")
    n.add_argument("--assignment", required=True, help=f"the nbgrader assignment it belongs to (one of "
                                                        f"{', '.join(registry.ASSIGNMENTS)}, or a new one)")
    n.add_argument("--functions", required=True, metavar="F,G", help="the functions students write, comma-separated")
    n.add_argument("--exact", default="", metavar="G", help="those of the functions whose answer is an exact SymPy "
                                                            "value (they take no arguments)")
    n.add_argument("--root", type=Path, default=ROOT, metavar="DIR", help="the project (default: this one)")
    n.set_defaults(run=run_new)
    a = actions.add_parser("add", help="give an exercise that exists more functions (docs/writing-a-grader.md)",
                           description="Add functions to an exercise: a stub and a solution function, a public and a "
                                       "hidden check each, its DOMAIN entry, its promise in docs/contract.md and its "
                                       "name and points in graders/registry.py, each marked TODO where your words go. "
                                       "Nothing is written unless all of it can be.",
                           epilog="example:\n  attn-grade course add rope --functions unrotate",
                           formatter_class=HelpFormatter)
    a.add_argument("slug", help="the exercise, as the registry names it")
    a.add_argument("--functions", required=True, metavar="F,G", help="the functions to add, comma-separated")
    a.add_argument("--exact", default="", metavar="G", help="those of them whose answer is an exact SymPy value "
                                                            "(they take no arguments)")
    a.add_argument("--root", type=Path, default=ROOT, metavar="DIR", help="the project (default: this one)")
    a.set_defaults(run=run_add)


def _names(text: str) -> list[str]:
    """``"f, g,"`` -> ``["f", "g"]``: the names of a comma-separated option."""
    return [f.strip() for f in text.split(",") if f.strip()]


def run_new(parser, args) -> int:
    from .scaffold import ScaffoldError, new

    try:
        written = new(args.root, args.slug, args.title, args.assignment, _names(args.functions),
                      exact=_names(args.exact))
    except (ScaffoldError, OSError) as exc:
        print(f"attn-grade course new: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(args.root)}")
    print(f"Next: fill in each TODO, write solutions/{args.slug}.py, the checks, at least 5 mutants and 2 "
          f"alternatives (docs/writing-a-grader.md), then run 'attn-grade course build' and the tests.")
    return 0


def run_add(parser, args) -> int:
    from .scaffold import ScaffoldError
    from .scaffoldadd import add

    try:
        written = add(args.root, args.slug, _names(args.functions), exact=_names(args.exact))
    except (ScaffoldError, OSError) as exc:
        print(f"attn-grade course add: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(args.root)}")
    return 0
