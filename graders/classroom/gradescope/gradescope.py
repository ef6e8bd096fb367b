"""``attn-grade gradescope OUT.zip``: a Gradescope autograder archive, and what runs inside it.

The archive holds, at its root (Gradescope unpacks it into /autograder/source):

    setup.sh          run once when Gradescope builds the image: Python, a venv, the dependencies
    run_autograder    run for every submission: ``python -m graders.classroom.gradescope.gradescope run``
    autograder.json   the exercises graded, the hidden checks' visibility, the time limits
    requirements.txt  every runtime dependency and theirs, pinned to the version installed where the
                      archive is built (pins.py); setup.sh says so if Gradescope's Python differs
    attn/             this project's graders/, and the chosen exercises' hidden checks and
                      solutions (solutions/<slug>.py and .md), those owner-only (0600, folders 0700)

``run`` grades /autograder/submission (``<slug>.py`` files, or the assignment's
notebooks, whose answer cells are taken as for nbgrader, never run) with the
sandboxed engine and writes /autograder/results/results.json in Gradescope's
format. An archive built with ``--variants`` grades each student on their own
numbers (kit/variants.py), the student being the submitter's email in
/autograder/submission_metadata.json. ATTN_AUTOGRADER_ROOT moves /autograder (the tests use that);
ATTN_AUTOGRADER_PYTHON names the interpreter run_autograder uses.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from ... import registry
from ...grading.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
RUN = """#!/usr/bin/env bash
# Gradescope runs this for every submission; it writes results/results.json.
set -u
umask 077  # what the grader writes (bytecode of the solutions, caches) is its own alone
export PYTHONDONTWRITEBYTECODE=1
root="${ATTN_AUTOGRADER_ROOT:-/autograder}"
python="${ATTN_AUTOGRADER_PYTHON:-$root/venv/bin/python}"
cd "$root/source/attn" && exec "$python" -m graders.classroom.gradescope.gradescope run --root "$root"
"""


# ------------------------------------------------------------------ building the archive
# The grader's own files: the graded exercises' reference solutions and hidden checks. Only the
# chosen exercises' are shipped, owner-only (unzip keeps these modes; ``run`` sets them again).
SECRET = ("solutions", "graders/hidden")
OWNER_FILE, OWNER_FOLDER = 0o600, 0o700


def build(target: Path, exercises, hidden_visibility: str = "after_published", timeout: float = 10.0,
          allow_unisolated: bool = False, variants: bool = False) -> Path:
    from .pins import requirements_txt, setup_sh

    requirements = requirements_txt()  # before anything is written: Unpinnable leaves no archive
    config = {"exercises": list(exercises), "hidden_visibility": hidden_visibility, "timeout": timeout,
              "allow_unisolated": allow_unisolated, **({"variants": True} if variants else {})}
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        _add(z, "setup.sh", setup_sh(), 0o755)
        _add(z, "run_autograder", RUN, 0o755)
        _add(z, "autograder.json", json.dumps(config, indent=2) + "\n")
        _add(z, "requirements.txt", requirements)
        for path in sorted((ROOT / "graders").rglob("*")):
            if _shipped(path) and not path.relative_to(ROOT).as_posix().startswith("graders/hidden/"):
                _add(z, f"attn/{path.relative_to(ROOT).as_posix()}", path.read_bytes())
        secret = [ROOT / "graders" / "hidden" / "__init__.py"]
        for slug in exercises:
            secret += [ROOT / "graders" / "hidden" / f"{slug}.py",
                       *(ROOT / "solutions" / f"{slug}{ext}" for ext in (".py", ".md"))]
        for folder in SECRET:
            z.writestr(_info(f"attn/{folder}/", 0o040000 | OWNER_FOLDER), b"")
        for path in sorted(p for p in secret if _shipped(p)):
            _add(z, f"attn/{path.relative_to(ROOT).as_posix()}", path.read_bytes(), OWNER_FILE)
    return target


def _shipped(path: Path) -> bool:
    return path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"


def _add(z: zipfile.ZipFile, name: str, data, mode: int = 0o644) -> None:
    z.writestr(_info(name, 0o100000 | mode), data)


def _info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes on every build
    info.external_attr = mode << 16 | (0x10 if name.endswith("/") else 0)  # 0x10: MS-DOS's folder flag
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


# ------------------------------------------------------------------ grading one submission
def stage(submission: Path, exercises, work: Path) -> dict:
    """Copy each exercise's answer into ``work``/<slug>.py; return slug -> (problem, missing) for the others.

    A ``<slug>.py`` is taken as it is; else a ``<slug>.ipynb``'s answer cell (graders/classroom/nbgrader/nbsubmit.py).
    Files may sit anywhere under the submission (an upload from GitHub has folders)."""
    from ..nbgrader.nbsubmit import NotebookProblem, answer_source, neutralise_magics

    problems = {}
    found = {p.name: p for p in sorted(Path(submission).rglob("*"), key=lambda p: (len(p.parts), str(p)))
             if p.is_file() and not p.is_symlink() and "__MACOSX" not in p.parts}
    for slug in exercises:
        if f"{slug}.py" in found:
            shutil.copy(found[f"{slug}.py"], work / f"{slug}.py")
        elif f"{slug}.ipynb" in found:
            try:
                source, _ = neutralise_magics(answer_source(found[f"{slug}.ipynb"], slug))
            except NotebookProblem as exc:
                problems[slug] = (f"{slug}.ipynb was not graded: {exc}", False)
                continue
            (work / f"{slug}.py").write_text(source, encoding="utf-8")
        else:
            problems[slug] = (f"neither {slug}.py nor {slug}.ipynb was found in your submission", True)
    for name in found:  # a student's helper modules come along, as in a folder of their own
        if name.endswith(".py") and not (work / name).exists() and name[:-3] not in registry.BY_SLUG:
            shutil.copy(found[name], work / name)
    return problems


class Unisolated(RuntimeError):
    """The sandbox cannot isolate a submission here, and the archive was not built to allow that."""


def grade(submission: Path, config: dict, seen: dict | None = None, plans: Path | None = None,
          student: str | None = None) -> dict:
    """The results.json (Gradescope's format) for one submission. ``seen`` gets "box": what the
    sandbox said of itself, as soon as it said it (so a grader that fails can still tell).
    ``plans``: the plan cache's folder (a Settings' ``plans``), or None for memory only.
    ``student``: whose numbers to grade on, in an archive built with variants (None: the seed's)."""
    from ...grading.folder import Folder

    start, timeout = time.monotonic(), float(config.get("timeout", 10.0))
    results = []
    with tempfile.TemporaryDirectory(prefix="attn-gradescope-") as tmp:
        work = Path(tmp) / "submission"
        work.mkdir()
        problems = stage(submission, config["exercises"], work)
        with Folder(work, timeout=timeout, plans=plans, scratch=tmp, student=student) as folder:
            try:
                folder.start()
                if not folder.report.isolated and not config.get("allow_unisolated"):
                    raise Unisolated("the sandbox here cannot keep a submission from the solutions: "
                                     + "; ".join(folder.report.missing))
                results = folder.grade_all(config["exercises"], problems=problems)
            finally:
                box = folder.report.as_dict()
                if seen is not None:
                    seen["box"] = box
    from ...grading.results import variants_of
    from .gsresults import for_gradescope

    data = for_gradescope(results, config.get("hidden_visibility", "after_published"), time.monotonic() - start, box)
    if config.get("variants"):
        data.setdefault("extra_data", {})["variants"] = variants_of(results)
    return data


def submitter(root: Path) -> str | None:
    """The submitter's email, from Gradescope's submission_metadata.json, or None if it names none."""
    try:
        users = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8")).get("users")
        email = users[0].get("email") if isinstance(users, list) and users and isinstance(users[0], dict) else None
    except (OSError, ValueError, AttributeError):
        return None
    return email.strip() if isinstance(email, str) and email.strip() else None


def run(root: Path, settings: Settings | None = None) -> int:
    """Gradescope's run_autograder: grade root/submission into root/results/results.json.

    First the grader's own files (root/source/attn's solutions and hidden checks, the plan
    cache) are closed to the sandbox's uids (owner_only.py). What could not be closed goes
    to the instructor, in extra_data and on stdout (Gradescope shows students neither), and
    grading goes on. extra_data always says which protections were in force. ``settings``:
    the environment's (settings.py), read by the caller; by default read here."""
    plans = (settings or Settings.from_environ()).plans
    umask, bytecode = os.umask(0o077), sys.dont_write_bytecode  # as run_autograder sets them:
    sys.dont_write_bytecode = True  # nothing the grader writes is others', no compiled solutions
    try:
        return _grade_into(root, plans)
    finally:  # called in process (the tests), the caller's settings come back
        os.umask(umask)
        sys.dont_write_bytecode = bytecode


def _grade_into(root: Path, plans: Path | None) -> int:
    from .gsresults import for_instructor
    from .owner_only import close, grader_folders

    results = root / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    try:
        closed, not_closed = close(grader_folders(root / "source" / "attn", plans))
    except Exception as exc:  # noqa: BLE001 - close itself never raises; finding the folders might
        closed, not_closed = [], [f"the grader's files were not closed ({type(exc).__name__}: {exc})"]
    seen = {}
    try:
        config = json.loads((root / "source" / "autograder.json").read_text(encoding="utf-8"))
        student = submitter(root) if config.get("variants") else None
        data = grade(root / "submission", config, seen, plans, student)
        if config.get("variants") and student is None:
            data["output"] = (data.get("output", "") + "\nNo submitter's email in submission_metadata.json: "
                              "graded on the numbers in the exercises' text.").strip()
    except Exception as exc:  # noqa: BLE001 - Gradescope must get a results.json whatever happens
        data = {"score": 0.0, "output": f"The autograder failed ({type(exc).__name__}: {exc}); this is not your "
                                        f"fault: tell your instructor.", "tests": [],
                "extra_data": {"grader_failed": f"{type(exc).__name__}: {exc}"}}
    extra = data.setdefault("extra_data", {})
    if "isolation" not in extra:  # the grader failed: what its sandbox said, if it said anything
        box = seen.get("box", {})
        extra["isolation"] = box.get("measures", [])
        extra["not_isolated"] = box.get("missing", ["unknown: the grader failed before its sandbox said"])
    extra.update(closed_to_the_sandbox=closed, not_closed=not_closed)
    results.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(data.get("output", ""))
    print(for_instructor(data))
    return 0


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    p = subparsers.add_parser(
        "gradescope", help="build a Gradescope autograder archive (instructors)",
        description="Write OUT.zip, an autograder for a Gradescope programming assignment: it grades each "
                    "submission's <slug>.py files or notebooks with the sandboxed engine, public checks "
                    "visible, hidden checks as --hidden-visibility says. Upload it in the assignment's "
                    "Configure Autograder page.")
    p.add_argument("zip", type=Path, metavar="OUT.zip")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--assignment", choices=registry.ASSIGNMENTS, help="grade this assignment's exercises")
    which.add_argument("--exercises", metavar="a,b", help="grade these exercises (comma-separated slugs)")
    p.add_argument("--hidden-visibility", choices=VISIBILITIES, default="after_published",
                   help="when students see the hidden checks (default: after_published)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="per call (default: 10)")
    p.add_argument("--variants", action="store_true",
                   help="each student their own numbers in the exercises that vary (as 'attn-grade grade "
                        "--variants'); the student's id is their Gradescope email, which they give to "
                        "'attn-learn variant --id' to see their numbers")
    p.add_argument("--allow-unisolated", action="store_true",
                   help="grade even where the sandbox cannot keep submissions from the solutions (no namespaces "
                        "and no Landlock: an old kernel); results.json's extra_data then says so")
    p.set_defaults(run=_run)


def _run(parser, args) -> int:
    if args.exercises:
        slugs = [s.strip() for s in args.exercises.split(",") if s.strip()]
        unknown = [s for s in slugs if s not in registry.BY_SLUG]
        if unknown or not slugs:
            parser.error(f"--exercises: unknown {', '.join(unknown) or '(none given)'}; the exercises are "
                         f"{', '.join(registry.BY_SLUG)}")
    elif args.assignment:
        slugs = [e.slug for e in registry.of_assignment(args.assignment)]
    else:
        slugs = list(registry.BY_SLUG)
    if args.zip.suffix != ".zip":
        parser.error(f"{args.zip}: the archive's name should end in .zip")
    if not (ROOT / "solutions").is_dir() or not (ROOT / "graders" / "hidden").is_dir():
        parser.error("the autograder needs the hidden checks and the solutions: run this in the instructor's checkout")
    from .pins import Unpinnable

    try:
        build(args.zip, slugs, args.hidden_visibility, args.timeout, args.allow_unisolated, args.variants)
    except Unpinnable as exc:
        print(f"attn-grade gradescope: no archive written: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.zip}: an autograder for {', '.join(slugs)}; hidden checks {args.hidden_visibility}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graders.classroom.gradescope.gradescope")
    parser.add_argument("action", choices=("run",))
    settings = Settings.from_environ()
    parser.add_argument("--root", type=Path, default=settings.autograder_root)
    args = parser.parse_args(argv)
    return run(args.root, settings)


if __name__ == "__main__":
    sys.exit(main())
