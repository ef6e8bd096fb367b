"""``attn-grade course new SLUG``: the files of a new exercise, ready to be filled in.

It writes what docs/writing-a-grader.md names, each file small and marked TODO
where the author's words go: the stub (exercises/), the reference solution
(solutions/, its bodies still to write), the public grader with one check per
function and its DOMAIN, its hidden twin comparing with the reference, the hints,
the folders of mutants, alternatives and corpus, the exercise's section of
docs/contract.md and one line in graders/registry.py. Nothing that exists is
overwritten.

Hints point to a lesson's sections, and the lesson is written after the exercise:
until then they point to a placeholder, course/lessons/NN_<slug>.ipynb (with its
row in the lessons' README), whose title says "not written yet" and whose metadata
names it one (``placeholders`` finds them; the command says so when it writes one).
So the new exercise passes the project's tests at once, but for the count of its
mutants, alternatives and corpus files (tests/test_scaffold_passes.py). Then: write
the solution, the checks, at least five mutants, two alternatives and a corpus
file, and the lesson, and run ``attn-grade course build``.
"""

from __future__ import annotations

import json
import keyword
import re
from pathlib import Path

from .. import registry

NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
ANCHOR = "\n)\n\nBY_SLUG"  # the end of registry.EXERCISES, where the new line goes
EXERCISES = "\n## The exercises\n"  # docs/contract.md: the new section goes at the end of this one
MARK = "attn_grade_placeholder"  # a placeholder lesson's metadata: {MARK: slug}
HINTS_SHOWN = 3  # tests/test_learner.py asks for three hints at least
# The project's tests of one exercise (docs/writing-a-grader.md, "Testing one exercise").
TESTS = (".venv/bin/python -m pytest tests/test_graders.py tests/test_contract.py tests/test_domain.py "
         'tests/test_diagnoses.py tests/test_learner.py -k "[{s}] or [{s}/ or /{s}/ or [{s}. or no_hint_leaks"',
         ".venv/bin/python -m pytest tests/test_layout.py tests/test_scaffold_lessons.py")

STUB = '''"""Exercise {slug}: {title}.

TODO: the task in a few sentences, and what the function must promise (shapes, dtypes, inputs
left unchanged), as docs/contract.md states it.

Read first: lesson {number}, course/lessons/{lesson}.
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

from .kit import Domain, as_array, call_text, check, entries_within, expect

# What each stub promises of its arguments (docs/writing-a-grader.md, "What a check may ask").
DOMAIN = Domain({{{domain}
}})
{checks}'''
DOMAIN = '''
    "{name}": ("finite entries as large as ±1e4 (TODO: the stub's own words)",
    {pad}     lambda x: entries_within(x, minus_inf=False)),'''
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
HINTS = "# Hints for {slug}\n\nLesson: {lesson}\n{hints}"
HINT = '''
## Hint
See: {lesson} § {heading}

TODO: hint {n} of {total}, a nudge in two or three sentences towards what the lesson's section
teaches, never the answer (the release's leak scan reads this file). Each hint says a little more.
'''
HEADING = "{n}. TODO: the section hint {n} points to"
INTRO = ("# Lesson {number} · {title} (not written yet)\n\nA placeholder that `attn-grade course new {slug}` "
         "wrote: the lesson that prepares the exercise **`{slug}`** is not written yet. The sections below are "
         "the ones graders/hints/{slug}.md points to. TODO: write the lesson (see README.md), or point the "
         "hints to an existing lesson's sections and delete this notebook and its row in README.md.")
ROW = "| {number} | [`{lesson}`]({lesson}) | not written yet: a placeholder (TODO) | – | `{slug}` |"
SECTION = '''### {number}. `{slug}`: {title}

TODO: the task in a sentence or two, and what holds for all its functions.

{functions}
'''
PROMISE = ("- `{name}(x: np.ndarray) -> np.ndarray`: TODO: what it returns; x is a float64\n"
           "  array of shape (n,), the result a new float64 array of shape (n,)")
KEEP = "Write at least {n} {what} here, one .py file each: see docs/writing-a-grader.md.\n"


class ScaffoldError(Exception):
    """The exercise cannot be made as asked; the message says why."""


def placeholders(root: Path) -> dict[str, Path]:
    """{slug: notebook} of every lesson in ``root``/course/lessons that is still a placeholder."""
    found = {}
    for path in sorted((Path(root) / "course" / "lessons").glob("*.ipynb")):
        slug = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get(MARK)
        if slug:
            found[slug] = path
    return found


def placeholder_lesson(number: int, slug: str, title: str, headings: list[str]) -> str:
    """The placeholder lesson's notebook: its title, what it stands for, and one TODO section per heading."""
    cells = [INTRO.format(number=number, title=title, slug=slug)] + [f"## {h}\n\nTODO." for h in headings]
    return json.dumps({
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}
                  for text in cells],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}, MARK: slug},
        "nbformat": 4, "nbformat_minor": 4}, indent=1, ensure_ascii=False) + "\n"


def _with_row(readme: str, row: str) -> str:
    """The lessons' README with ``row`` after the last row of its table (or at its end)."""
    lines = readme.splitlines()
    last = max((i for i, line in enumerate(lines) if line.startswith("|")), default=len(lines) - 1)
    return "\n".join(lines[:last + 1] + [row] + lines[last + 1:]) + "\n"


def _with_section(contract: str, section: str) -> str:
    """docs/contract.md with ``section`` at the end of its "The exercises" (or at its end)."""
    start = contract.find(EXERCISES)
    end = contract.find("\n## ", start + len(EXERCISES)) if start >= 0 else -1
    if end < 0:
        return contract.rstrip("\n") + "\n\n" + section
    return contract[:end].rstrip("\n") + "\n\n" + section + contract[end:]


def new(root: Path, slug: str, title: str, assignment: str, functions: list[str], say=print) -> list[Path]:
    """Write the files of exercise ``slug`` under ``root`` (a checkout of this project); return them.
    ``say`` is told what is a placeholder still, and which tests to run."""
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
    contract_file, lessons = root / "docs" / "contract.md", root / "course" / "lessons"
    contract = contract_file.read_text(encoding="utf-8") if contract_file.exists() else ""
    kept = re.search(rf"^### \d+\. `{slug}`", contract, re.M)  # written first, by hand: kept
    stated = [f for f in functions if f"`{f}(" in contract and not kept]
    if stated:
        raise ScaffoldError(f"docs/contract.md states {', '.join(stated)} already: give the functions names of "
                            f"their own")
    number = 1 + max((int(p.name[:2]) for p in lessons.glob("[0-9][0-9]_*.ipynb")), default=0)
    lesson = f"{number:02d}_{slug}.ipynb"
    headings = [HEADING.format(n=n) for n in range(1, HINTS_SHOWN + 1)]
    stub = dict(slug=slug, title=title, number=number, lesson=lesson)
    files = {
        root / "exercises" / f"{slug}.py": STUB.format(**stub, functions="".join(
            FUNCTION.format(name=f, what="is not written yet") for f in functions)),
        root / "solutions" / f"{slug}.py": STUB.format(**stub, functions="".join(
            FUNCTION.format(name=f, what="(the reference solution) is not written yet") for f in functions)),
        root / "graders" / f"{slug}.py": GRADER.format(slug=slug, checks="".join(
            CHECK.format(name=f) for f in functions), domain="".join(
            DOMAIN.format(name=f, pad=" " * len(f)) for f in functions)),
        root / "graders" / "hidden" / f"{slug}.py": HIDDEN.format(slug=slug, checks="".join(
            HIDDEN_CHECK.format(name=f) for f in functions)),
        root / "graders" / "hints" / f"{slug}.md": HINTS.format(slug=slug, lesson=lesson, hints="".join(
            HINT.format(lesson=lesson, heading=h, n=n, total=HINTS_SHOWN) for n, h in enumerate(headings, 1))),
        lessons / lesson: placeholder_lesson(number, slug, title, headings),
        root / "tests" / "mutants" / slug / "README.md": KEEP.format(n=5, what="mutants (realistic wrong answers)"),
        root / "tests" / "alternatives" / slug / "README.md": KEEP.format(n=2, what="correct alternatives"),
        root / "tests" / "corpus" / slug / "README.md": KEEP.format(n=1, what="right answer as people write it "
                                                                 "(its # source:, # license: and # adapted:)"),
    }
    there = [str(p.relative_to(root)) for p in files if p.exists()]
    if there:
        raise ScaffoldError(f"these exist already, and nothing was written: {', '.join(there)}")
    if ANCHOR not in text:
        raise ScaffoldError(f"{registry_file} does not end its EXERCISES as expected; add the line by hand")
    readme = lessons / "README.md"
    line = (f'    Exercise("{slug}", {title!r}, {2 * len(functions)}, ({", ".join(repr(f) for f in functions)},), '
            f'"{assignment}"),')
    if readme.exists():
        files[readme] = _with_row(readme.read_text(encoding="utf-8"), ROW.format(number=number, lesson=lesson,
                                                                                 slug=slug))
    if contract and not kept:
        files[contract_file] = _with_section(contract, SECTION.format(
            number=1 + len(re.findall(r"^### \d+\. ", contract, re.M)), slug=slug, title=title,
            functions="\n".join(PROMISE.format(name=f) for f in functions)))
    files[registry_file] = text.replace(ANCHOR, f"\n{line}{ANCHOR}", 1)
    for path, body in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    say(f"NO LESSON YET: course/lessons/{lesson} is a placeholder, and graders/hints/{slug}.md points to its TODO "
        f"sections. Write the lesson there, or point the hints to an existing lesson's sections and delete the "
        f"placeholder and its row in course/lessons/README.md. Until then tests/test_scaffold_lessons.py says so.")
    if kept:
        say(f"docs/contract.md has a section for {slug} already: kept as it is.")
    elif not contract:
        say(f"No docs/contract.md in {root}: write the exercise's section there by hand (docs/writing-a-grader.md).")
    say("The exercise's tests (docs/writing-a-grader.md, \"Testing one exercise\"); one fails until its mutants "
        "and alternatives are written:\n" + "\n".join("  " + t.format(s=slug) for t in TESTS))
    return list(files)
