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

A function whose answer is an exact value (a SymPy expression, as hand_scores and variance_proof ask)
is named with ``exact``: it takes no arguments, and its checks read the answer with kit/exact.py
(``to_expr`` in the public check: exact, or half for a float; ``compare`` with the reference in the
hidden one). ``attn-grade course add`` (scaffoldadd.py) gives an exercise that exists more functions
the same way. Both use the checks of names here (``check_names``, ``check_functions``) and the text
of scaffoldtext.py; coursescaffold.py is their command line.
"""

from __future__ import annotations

import json
import keyword
import re
from pathlib import Path

from ... import registry
from .scaffoldtext import (
    GRADER, HEADING, HIDDEN, HIDDEN_SYMPY, HINT, HINTS, INTRO, KEEP, ROW, SECTION, STUB, SYMPY, checks, domain_dict,
    promises, stub_functions, with_kit_line, with_sympy)

NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
ANCHOR = "\n)\n\nBY_SLUG"  # the end of registry.EXERCISES, where the new line goes
EXERCISES = "\n## The exercises\n"  # docs/contract.md: the new section goes at the end of this one
MARK = "attn_grade_placeholder"  # a placeholder lesson's metadata: {MARK: slug}
HINTS_SHOWN = 3  # tests/test_learner.py asks for three hints at least
LESSON_LIMIT = 6  # written lessons at most (tests/test_lessons.py reads it here; a placeholder is not counted)
# The project's tests of one exercise (docs/writing-a-grader.md, "Testing one exercise").
TESTS = (".venv/bin/python -m pytest tests/test_graders.py tests/test_contract.py tests/test_domain.py "
         'tests/test_diagnoses.py tests/test_learner.py -k "[{s}] or [{s}/ or /{s}/ or [{s}. or no_hint_leaks"',
         ".venv/bin/python -m pytest tests/test_layout.py tests/test_scaffold_lessons.py")


class ScaffoldError(Exception):
    """The exercise cannot be made as asked; the message says why."""


def check_names(pairs) -> None:
    """Refuse a slug, assignment or function name (``pairs``: (name, what it is)) that is not a plain name."""
    for name, what in pairs:
        if not NAME.match(name) or keyword.iskeyword(name):
            raise ScaffoldError(f"{name!r} cannot be {what}: use lower-case letters, digits and _, starting "
                                f"with a letter")


def check_functions(functions, exact) -> None:
    """Refuse functions named twice (or none), and ``exact`` naming one that ``functions`` does not."""
    if not functions or len(set(functions)) < len(functions):
        raise ScaffoldError("give each function once (--functions f,g)")
    strange = [f for f in exact if f not in functions]
    if strange:
        raise ScaffoldError(f"--exact names {', '.join(strange)}, which --functions does not")


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


def new(root: Path, slug: str, title: str, assignment: str, functions: list[str], say=print,
        exact: list[str] = ()) -> list[Path]:
    """Write the files of exercise ``slug`` under ``root`` (a checkout of this project); return them.
    ``say`` is told what is a placeholder still, and which tests to run. ``exact``: the functions whose
    answer is an exact SymPy value (they take no arguments)."""
    root = Path(root)
    check_names([(slug, "the slug"), (assignment, "the assignment")] + [(f, "a function") for f in functions])
    check_functions(functions, exact)
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
        root / "exercises" / f"{slug}.py": with_sympy(STUB.format(**stub, functions=stub_functions(
            functions, exact, "is not written yet")), exact),
        root / "solutions" / f"{slug}.py": with_sympy(STUB.format(**stub, functions=stub_functions(
            functions, exact, "(the reference solution) is not written yet")), exact),
        root / "graders" / f"{slug}.py": with_kit_line(GRADER.format(
            slug=slug, checks=checks(functions, exact), domain=domain_dict(functions, exact),
            sympy=SYMPY if exact else ""), functions, exact),
        root / "graders" / "hidden" / f"{slug}.py": with_kit_line(HIDDEN.format(
            slug=slug, checks=checks(functions, exact, True), sympy=HIDDEN_SYMPY if exact else ""), functions, exact,
            True),
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
    line = _registry_line(slug, title, 2 * len(functions), functions, assignment)
    if readme.exists():
        files[readme] = _with_row(readme.read_text(encoding="utf-8"), ROW.format(number=number, lesson=lesson,
                                                                                 slug=slug))
    if contract and not kept:
        files[contract_file] = _with_section(contract, SECTION.format(
            number=1 + len(re.findall(r"^### \d+\. ", contract, re.M)), slug=slug, title=title,
            functions=promises(functions, exact)))
    files[registry_file] = text.replace(ANCHOR, f"\n{line}{ANCHOR}", 1)
    for path, body in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    say(f"NO LESSON YET: course/lessons/{lesson} is a placeholder, and graders/hints/{slug}.md points to its TODO "
        f"sections. Write the lesson there, or point the hints to an existing lesson's sections and delete the "
        f"placeholder and its row in course/lessons/README.md. Until then tests/test_scaffold_lessons.py says so.")
    if number > LESSON_LIMIT:
        say(f"There are {number - 1} lessons already, and the lessons' tests allow {LESSON_LIMIT} written ones at "
            f"most: write this one's sections into an existing lesson and point the hints there.")
    if kept:
        say(f"docs/contract.md has a section for {slug} already: kept as it is.")
    elif not contract:
        say(f"No docs/contract.md in {root}: write the exercise's section there by hand (docs/writing-a-grader.md).")
    say("The exercise's tests (docs/writing-a-grader.md, \"Testing one exercise\"); one fails until its mutants "
        "and alternatives are written:\n" + "\n".join("  " + t.format(s=slug) for t in TESTS))
    return list(files)


def _registry_line(slug, title, points, functions, assignment) -> str:
    names = "(" + ", ".join(f'"{f}"' for f in functions) + ("," if len(functions) == 1 else "") + ")"
    line = f'    Exercise("{slug}", {json.dumps(title, ensure_ascii=False)}, {points:g}, {names}, "{assignment}"),'
    if len(line) <= 120:
        return line
    head, _, rest = line.partition(f", {names}")
    return f"{head},\n             {names}{rest}"

