"""``attn-grade course new SLUG``: the files of a new exercise, ready to be filled in.

It writes what docs/writing-a-grader.md names, each file small and marked TODO
where the author's words go: the stub (exercises/), the reference solution
(solutions/, its bodies still to write), the public grader with one check per
function, its hidden twin comparing with the reference, the hints, the folders
of mutants and alternatives, and one line in graders/registry.py. Nothing that
exists is overwritten. Then: write the solution, the checks, at least five
mutants and two alternatives, and run ``attn-grade course build``.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from .. import registry

NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
ANCHOR = "\n)\n\nBY_SLUG"  # the end of registry.EXERCISES, where the new line goes

STUB = '''"""Exercise {slug}: {title}.

TODO: the task in a few sentences, and what the function must promise (shapes, dtypes, inputs
left unchanged), as docs/contract.md states it.
"""

import numpy as np
{functions}'''
FUNCTION = '''

def {name}(x: np.ndarray) -> np.ndarray:
    """TODO: what {name} returns.

    x: float64 array of shape (n,). Returns a new float64 array of shape (n,).
    """
    raise NotImplementedError("{name} {what}")
'''
GRADER = '''"""Grader for the {slug} exercise: public checks. See docs/writing-a-grader.md."""

import numpy as np

from .kit import as_array, call_text, check, expect
{checks}'''
CHECK = '''

@check("{name} returns a float64 array of its input's shape", 1, uses=("{name}",))
def {name}_shape(sub, ref):
    x = np.array([0.0, 1.0, 2.0])
    call = call_text("{name}", x)
    out = as_array(f"{{call}} returned an array that", sub.call("{name}", x), shape=x.shape)
    expect(out.dtype == np.float64, f"{{call}} returned dtype {{out.dtype}}; return float64")
'''
HIDDEN = '''"""Hidden checks for {slug}: they compare with the reference solution and are never shipped."""

from ..kit import arrays_any_rank, as_array, call_text, check, expect_array_close, for_all, reworded
{checks}'''
HIDDEN_CHECK = '''

@check("{name} agrees with the reference", 1, hidden=True, uses=("{name}",))
def {name}_agrees(sub, ref):
    def prop(x):
        call = call_text("{name}", x)
        got = as_array(f"{{call}} returned an array that", sub.call("{name}", x), shape=x.shape)
        with reworded(f"called {{call}}: "):
            expect_array_close("the result", ref.{name}(x), got)

    for_all(arrays_any_rank(max_dims=1), prop)
'''
HINTS = '''# Hints for {slug}

Lesson: TODO (the lesson notebook in course/lessons/ that teaches it)

## Hint
See: TODO § TODO

TODO: a first nudge, without the answer.
'''
KEEP = "Write at least {n} {what} here, one .py file each: see docs/writing-a-grader.md.\n"


class ScaffoldError(Exception):
    """The exercise cannot be made as asked; the message says why."""


def new(root: Path, slug: str, title: str, assignment: str, functions: list[str]) -> list[Path]:
    """Write the files of exercise ``slug`` under ``root`` (a checkout of this project); return them."""
    root = Path(root)
    for name, what in [(slug, "the slug"), (assignment, "the assignment")] + [(f, "a function") for f in functions]:
        if not NAME.match(name) or keyword.iskeyword(name):
            raise ScaffoldError(f"{name!r} cannot be {what}: use lower-case letters, digits and _, starting "
                                f"with a letter")
    if not functions or len(set(functions)) < len(functions):
        raise ScaffoldError("give each function once (--functions f,g)")
    registry_file = root / "graders" / "registry.py"
    text = registry_file.read_text(encoding="utf-8")
    if slug in registry.BY_SLUG or f'Exercise("{slug}"' in text:
        raise ScaffoldError(f"there is already an exercise called {slug}")
    files = {
        root / "exercises" / f"{slug}.py": STUB.format(slug=slug, title=title, functions="".join(
            FUNCTION.format(name=f, what="is not written yet") for f in functions)),
        root / "solutions" / f"{slug}.py": STUB.format(slug=slug, title=title, functions="".join(
            FUNCTION.format(name=f, what="(the reference solution) is not written yet") for f in functions)),
        root / "graders" / f"{slug}.py": GRADER.format(slug=slug, checks="".join(
            CHECK.format(name=f) for f in functions)),
        root / "graders" / "hidden" / f"{slug}.py": HIDDEN.format(slug=slug, checks="".join(
            HIDDEN_CHECK.format(name=f) for f in functions)),
        root / "graders" / "hints" / f"{slug}.md": HINTS.format(slug=slug),
        root / "tests" / "mutants" / slug / "README.md": KEEP.format(n=5, what="mutants (realistic wrong answers)"),
        root / "tests" / "alternatives" / slug / "README.md": KEEP.format(n=2, what="correct alternatives"),
    }
    there = [str(p.relative_to(root)) for p in files if p.exists()]
    if there:
        raise ScaffoldError(f"these exist already, and nothing was written: {', '.join(there)}")
    if ANCHOR not in text:
        raise ScaffoldError(f"{registry_file} does not end its EXERCISES as expected; add the line by hand")
    line = (f'    Exercise("{slug}", {title!r}, {2 * len(functions)}, ({", ".join(repr(f) for f in functions)},), '
            f'"{assignment}"),')
    for path, body in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    registry_file.write_text(text.replace(ANCHOR, f"\n{line}{ANCHOR}", 1), encoding="utf-8")
    return [*files, registry_file]
