"""What students get of this package: exactly what ``attn-grade check`` needs.

An allow-list of whole rooms: the registry, the public graders (graders/<slug>.py), their
hints and the digest tables of their variants (variants/: data only, like hints/), kit/,
bounded/, sandbox/, grading/ and the command (cli/), and plans/: the public checks'
recorded plans (inputs only), so a student's checks replay too. Nothing
else: not the hidden checks, the batch grader (batch/) or the instructor's tooling (this
folder), nor any room added later until it is named here. ``copy_public`` writes that
copy: as the student bundle's package (release.py) and as attn_checks/ beside the nbgrader
notebooks (course.py). The leak scan (leaks.py) refuses any copy that holds more.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ... import registry

PACKAGE = Path(__file__).resolve().parents[2]
PUBLIC_ROOMS = ("cli", "grading", "terminal", "kit", "bounded", "sandbox", "hints", "variants")  # shipped whole
PUBLIC_FILES = ("__init__.py", "registry.py", *(f"{e.slug}.py" for e in registry.EXERCISES))  # and the graders
INSTRUCTOR_ONLY = ("hidden", "classroom", "batch", "outfolder")  # never shipped (tests/test_release.py: every room is on a list)
# What a copy gets written into it: the recorded plans, the course's choices (course.py: variants on or off).
WRITTEN_IN_A_COPY = ("plans", "course.json", "__pycache__")
CACHES = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".hypothesis")


def is_public(rel: str) -> bool:
    """Whether the package's file or folder ``rel`` (a path relative to the package) ships."""
    top, _, inside = rel.partition("/")
    return top in PUBLIC_ROOMS or (not inside and top in PUBLIC_FILES)


def public_sources() -> list[Path]:
    """The package's .py files that students get."""
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts and is_public(p.relative_to(PACKAGE).as_posix()))


def copy_public(dest: Path, package: str = "graders", plans: bool = True) -> Path:
    """Copy the public package to dest/<package>/ (no caches), with the public checks'
    recorded plans in its plans/ folder (``plans``); return that path."""
    target = Path(dest) / package
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(PACKAGE, target, ignore=_ignore)
    if plans:
        write_plans(target / "plans")
    return target


def write_plans(folder: Path) -> int:
    """The public checks' plans, recorded against the reference solutions, as a student's
    copy reads them (grading/plancache.py: keys without a reference). They hold inputs only:
    the calls a check makes and what Hypothesis drew, never an answer. Returns how many."""
    from ...grading.engine import caches, checks_of, reference
    from ...grading.plancache import PlanStore, plan_key

    store, written = PlanStore(Path(folder), shipped=None), 0
    for e in registry.EXERCISES:
        ref = reference(e.slug)
        if ref is None:
            continue
        for fn in checks_of(e.slug, hidden=False):
            plan = caches().plans.get(fn, ref, solution=Path(ref.__file__))
            if plan is not None and store.save(plan_key(fn.__module__, fn.__qualname__, None), plan):
                written += 1
    return written


def _ignore(folder: str, names: list[str]) -> set[str]:
    skipped = set(CACHES(folder, names))
    where = Path(folder).resolve().relative_to(PACKAGE).as_posix()
    for name in names:
        rel = name if where == "." else f"{where}/{name}"
        if not is_public(rel):
            skipped.add(name)
    return skipped


def instructor_only_in(root: Path) -> list[str]:
    """What a copy of the package under ``root`` (a folder holding registry.py and kit/) holds
    beyond the public rooms and files: instructor-only rooms, or anything not known to ship;
    relative to ``root``."""
    root = Path(root)
    found = []
    for marker in sorted(root.rglob("registry.py")):
        copy = marker.parent
        if (copy / "kit").is_dir():
            found += [p.relative_to(root).as_posix() for p in sorted(copy.iterdir())
                      if p.name not in WRITTEN_IN_A_COPY and not is_public(p.name)]
    return found
