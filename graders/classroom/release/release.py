"""What a student gets without Jupyter: ``attn-grade release OUT``.

The bundle holds the stubs, the lessons, the public package (as public.py
defines it: no hidden checks, no batch grader, no instructor's tooling), a
pyproject.toml and a short README; never the solutions, the hidden checks,
the tests or the course sources. Its distribution installs other names than
this project's (``PACKAGE``, the ``attn-learn`` command: cli/name.py), so the
two can share an environment.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from ... import registry
from .public import CACHES, copy_public

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "attn_checks"  # the public copy's name here, as beside the nbgrader notebooks (course.py)
COMMAND = "attn-learn"  # what cli/name.py calls the command in a copy not named graders


# ------------------------------------------------------------------ the CLI
def register(subparsers) -> None:
    rel = subparsers.add_parser(
        "release", help="write the student bundle for plain-Python work (instructors)",
        description="Write into OUT what a student needs without Jupyter: exercises/ (the stubs), "
                    "course/lessons/, the public checks as attn_checks/, a pyproject.toml that installs "
                    "the 'attn-learn' command and a README. Never the solutions, hidden checks or tests. "
                    "The bundle is then scanned for leaked answers (graders/classroom/release/leaks.py); "
                    "exit status 1 if any is found.",
        epilog="example:\n  attn-grade release student-bundle/\n"
               "  (students: cd student-bundle && python3 -m venv .venv && . .venv/bin/activate && pip install -e .)")
    rel.add_argument("out", type=Path, metavar="OUT", help="folder to write (created if missing)")
    rel.add_argument("--force", action="store_true", help="replace OUT if it is not empty")
    rel.set_defaults(run=_run)


def _run(parser, args) -> int:
    out = args.out
    _refuse_bad_out(parser, out, args.force)
    missing = [p for p in ("exercises", "course/lessons", "pyproject.toml") if not (ROOT / p).exists()]
    if missing:
        parser.error(f"the project at {ROOT} has no {', '.join(missing)}: run 'attn-grade release' "
                     f"from the instructor's checkout (an editable install), not an installed copy")
    from ..authoring.scaffold import placeholders

    unwritten = placeholders(ROOT)
    if unwritten:
        parser.exit(2, f"attn-grade release: no bundle: {', '.join(sorted(unwritten))} still point(s) to a "
                       f"placeholder lesson ({', '.join(p.name for p in unwritten.values())}, written by 'attn-grade "
                       f"course new'); write the lesson first\n")
    files = release(out)
    print(f"wrote {files} files to {out}/ (stubs, lessons, public checks, README, pyproject.toml)")
    from .leaks import find_leaks

    leaks = find_leaks(out)
    for leak in leaks:
        print(f"LEAK {leak}")
    if leaks:
        print(f"{len(leaks)} leak(s) found in {out}/: do not hand it out")
        return 1
    print(f"no leaks found (solutions, exact answers, hidden checks, model answers); students: cd {out}, "
          f"then the README's two install lines (a venv, pip install -e .), then {COMMAND} list")
    return 0


def _refuse_bad_out(parser, out: Path, force: bool) -> None:
    """Usage errors: OUT a file, OUT not empty without --force, OUT holding the project."""
    real = out.resolve()
    if out.exists() and not out.is_dir():
        parser.error(f"OUT {out} exists and is not a folder")
    if real == ROOT or real in ROOT.parents:
        parser.error(f"OUT {out} holds the project itself; choose a new folder")
    for part in ("exercises", "course", "graders", "solutions"):
        if real == ROOT / part or (ROOT / part) in real.parents:
            parser.error(f"OUT {out} is inside the project's {part}/; choose a folder outside it")
    if out.is_dir() and any(out.iterdir()) and not force:
        parser.error(f"OUT {out} is not empty; choose a new folder or pass --force to replace it")


def release(out: Path) -> int:
    """Build the bundle next to OUT, then put it in OUT's place; return the number of files."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    build = out.parent / f".{out.name}.partial-{os.getpid()}"
    if build.exists():
        shutil.rmtree(build)
    build.mkdir()
    try:
        _write_bundle(build)
        if out.exists():
            shutil.rmtree(out)
        build.rename(out)
    finally:
        if build.exists():
            shutil.rmtree(build)
    return sum(1 for p in out.rglob("*") if p.is_file())


def _write_bundle(dest: Path) -> None:
    (dest / "exercises").mkdir()
    for path in sorted((ROOT / "exercises").iterdir()):
        if path.is_file() and path.suffix in (".py", ".md"):
            _copy_naming_the_command(path, dest / "exercises" / path.name)
    shutil.copytree(ROOT / "course" / "lessons", dest / "course" / "lessons", ignore=CACHES)
    _copy_naming_the_command(ROOT / "course" / "lessons" / "README.md", dest / "course" / "lessons" / "README.md")
    copy_public(dest, PACKAGE)
    (dest / "pyproject.toml").write_text(_pyproject(), encoding="utf-8")
    (dest / "README.md").write_text(_readme(), encoding="utf-8")
    (dest / ".gitignore").write_text("__pycache__/\n*.egg-info/\n.hypothesis/\nbuild/\n.venv/\n",
                                     encoding="utf-8")


def _copy_naming_the_command(source: Path, dest: Path) -> None:
    """Copy a text file, with "attn-grade CMD" as the bundle's command says it ("attn-learn CMD")."""
    text = source.read_text(encoding="utf-8")
    dest.write_text(re.sub(r"\battn-grade (?=check|watch|hint|list)", f"{COMMAND} ", text), encoding="utf-8")


def _dependencies() -> list[str]:
    """The runtime dependencies of the project's pyproject.toml, pins included (one source)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10: the one list we need, read plainly
        block = re.search(r"^dependencies\s*=\s*\[(.*?)^\]", text, re.S | re.M)
        lines = block.group(1).splitlines() if block else []
        return [m.group(1) for line in lines if (m := re.match(r'\s*"([^"]+)"', line))]
    return list(tomllib.loads(text)["project"]["dependencies"])


def _pyproject() -> str:
    deps = "".join(f'    "{d}",\n' for d in _dependencies())
    return f"""[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "attn-exercises-student"
version = "0.1.0"
description = "Self-attention exercises with their public checks (the {COMMAND} command)"
readme = "README.md"
requires-python = ">=3.10"
dependencies = [
{deps}]

[project.optional-dependencies]
# To run the lessons: jupyter and matplotlib.
lessons = ["notebook>=7", "matplotlib>=3.7"]

[project.scripts]
{COMMAND} = "{PACKAGE}.cli:run"

[tool.setuptools.packages.find]
include = ["{PACKAGE}", "{PACKAGE}.*"]

[tool.setuptools.package-data]
{PACKAGE} = ["hints/*.md", "plans/*.json"]
"""


def _readme() -> str:
    from ...grading.engine import points_of

    rows = []
    for i, e in enumerate(registry.EXERCISES, 1):
        public = points_of(e.slug)[0]
        rows.append(f"| {i} | `{e.slug}` | {e.title} | {public:g} | {e.points:g} |")
    return README.format(table="\n".join(rows), n=len(registry.EXERCISES), command=COMMAND, package=PACKAGE)


README = """\
# Self-attention exercises (student copy)

{n} exercises that build scaled dot-product self-attention, softmax(Q Kᵀ / √d_k) V,
from a computation by hand up to multi-head and cross-attention, with lessons to
read first and a command that checks your work as you go.

## Install (once)

You need Python 3.10 or newer. Inside this folder:

```sh
python3 -m venv .venv            # on Debian/Ubuntu, if this fails: sudo apt install python3-venv
. .venv/bin/activate             # on Windows: .venv\\Scripts\\activate
pip install -e .                 # the {command} command, with numpy, sympy and hypothesis
```

The venv keeps everything inside `.venv/`, so this works on a system Python that
refuses `pip install` (Debian's and Ubuntu's "externally managed" Python). Open a
new terminal later? Activate again with `. .venv/bin/activate`.

## Work

1. **Read the lesson first.** `course/lessons/` holds five notebooks, one or two per
   exercise (its README says which). To run them you need Jupyter:
   `pip install -e '.[lessons]'` (a few minutes, once), then `jupyter notebook course/lessons`.
   Each stub names its lesson at the end of its docstring.
2. Open the stub, for example `exercises/softmax.py`. Its docstrings say what each
   function takes and returns; replace every `raise NotImplementedError(...)` with your
   code. Keep the function names and signatures as they are.
3. Check it, from this folder (or any folder inside it):

```sh
{command} list                  # the exercises, your progress, the lesson for each
{command} check softmax         # one exercise (or its number: {command} check 5)
{command} watch                 # check again every time you save; Ctrl-C stops
{command} hint softmax          # stuck? one more hint each time (--reset starts over)
{command} check                 # all of them, in teaching order
```

(Without installing, `python -m {package}.cli check` from this folder does the same.)
The report marks each check ✓ or ✗ with its points, and a failed check says what went
wrong, usually with a small input on which your function misbehaves. The command
exits with status 0 only when every check here passes.

## Public checks and hidden checks

The checks in this copy are the **public** ones. They test properties any correct
answer has (weights are non-negative and add up to 1, a causal mask leaves zero weight
on later keys, nothing overflows, your inputs are left unchanged, …) and never contain
the answers. When your instructor grades your work, **hidden checks** run as well: they
compare your results with the reference solution. So full marks here are a good sign,
not a guarantee; a wrong answer that happens to have the right properties is caught only
then. `{command} list` counts the public points only.

| # | exercise | title | public points | points in all |
|---|----------|-------|--------------:|--------------:|
{table}

Your code runs in a separate, confined process while it is checked; what it prints is
shown to nobody and counts for nothing.

## What to hand in

Your `exercises/<slug>.py` files, as your instructor asks.
"""
