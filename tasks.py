#!/usr/bin/env python3
"""Set up and run the project with nothing but python3 (3.10 or newer).

    python3 tasks.py setup        create .venv with what a learner needs: numpy, sympy,
                                  hypothesis, watchdog and the attn-grade command; then record
                                  every check for this machine and start the helper that checks
                                  fork their sandboxes from (attn-grade prepare)
    python3 tasks.py lessons      add Jupyter and matplotlib, then open the lessons
    python3 tasks.py demo         add matplotlib, grade the reference solutions and a sample class
                                  of three, and write the class report
    python3 tasks.py test [ARGS]  add the test tools (pytest, nbgrader, a Jupyter kernel)
                                  and run the whole test suite (ARGS go to pytest)
    python3 tasks.py instructor   add nbgrader, to build and grade the course
    python3 tasks.py docs [ARGS]  add MkDocs, then build the documentation site into site/ (strict:
                                  a broken link or anchor fails; ARGS go to mkdocs build)
    python3 tasks.py hub [ARGS]   add JupyterHub, then start the course on a JupyterHub of this
                                  machine, to try (as root; --help says more)

Each command creates (or reuses) the virtual environment in .venv (ATTN_VENV
moves it) and installs again only when pyproject.toml has changed or it needs
an extra that is not there yet. While pip works (minutes, the first time) it
says which packages and how far pip has got; pip's whole output goes to
.venv/pip-install.log (.ci/pip_progress.py does the install and its progress lines).
"""

import sys

if sys.version_info < (3, 10):  # before anything newer Pythons alone can read
    sys.exit("attn-grade needs Python 3.10 or newer; this is Python %d.%d (%s)."
             % (sys.version_info[0], sys.version_info[1], sys.executable))

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# pip's install with its progress lines: a module of its own beside the CI scripts (standard library only)
_spec = importlib.util.spec_from_file_location("attn_pip_progress", ROOT / ".ci" / "pip_progress.py")
_pip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pip)
VENV = Path(os.environ.get("ATTN_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
DEMO_STUDENTS = ROOT / "demo" / "submissions"
DEMO_OUT = ROOT / "demo-out"
DEMO_VARIANTS = ROOT / "demo" / "variants"  # three students, each with their own numbers in hand_scores
TICK = 15.0  # seconds between "still installing" lines in a log (a terminal gets one line, rewritten)


def run(*cmd, check=True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def setup(*extras: str) -> None:
    """Create .venv and install the project (editable) with ``extras`` and those already there."""
    stamp = VENV / ".installed.json"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        had = json.loads(stamp.read_text())
    except (OSError, ValueError):
        had = {}
    wanted = sorted(set(extras) | set(had.get("extras", [])))
    if had.get("digest") == digest and set(extras) <= set(had.get("extras", [])) and PY.exists():
        return
    fresh = not PY.exists()
    if fresh:
        _create_venv("[1/2] ")
    _pip.install(ROOT, VENV, PY, wanted, "[2/2] " if fresh else "", TICK, _terminal())
    stamp.write_text(json.dumps({"digest": digest, "extras": wanted}))


def _create_venv(step: str = "") -> None:
    print(f"{step}creating the virtual environment in {_shown(VENV)}", flush=True)
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(VENV, ignore_errors=True)
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        sys.exit(f"could not create {_shown(VENV)} ({exc}).\nOn Debian or Ubuntu, Python's venv module "
                 f"comes in its own package: 'sudo apt install python{version}-venv', then run this again.")


def _terminal() -> bool:
    return sys.stdout.isatty()


def _shown(path: Path) -> str:
    return _pip.shown(path)


def lessons() -> int:
    """Install Jupyter and matplotlib, then open course/lessons/ in Jupyter."""
    setup("lessons")
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # Jupyter refuses root without it
    return run(BIN / "jupyter", "notebook", *root, ROOT / "course" / "lessons", check=False)


def demo() -> int:
    """Grade the reference solutions, then the sample class; show each student's feedback; write
    the class report (its plots need matplotlib, the 'report' extra)."""
    setup("report")
    grade = BIN / "attn-grade"
    print("\n=== The reference solutions (every check should pass) ===\n", flush=True)
    code = run(grade, "check", "--dir", "solutions", "--only-failed", check=False)
    if code != 0:
        print("the reference solutions did not get full marks: this is a bug", file=sys.stderr)
        return code
    print("\n=== Batch-grading the sample class in demo/submissions ===\n", flush=True)
    shutil.rmtree(DEMO_OUT, ignore_errors=True)  # a fresh demo every time
    run(grade, "grade", DEMO_STUDENTS, "--out", DEMO_OUT)
    for student in sorted(p for p in DEMO_STUDENTS.iterdir() if p.is_dir()):
        print(f"\n=== Feedback for {student.name} (checks that lost points) ===\n", flush=True)
        run(grade, "show", DEMO_OUT / "students" / student.name / "results.json", "--only-failed")
    if run(grade, "report", DEMO_OUT, check=False) == 0:
        print(f"\nThe class report: {(DEMO_OUT / 'report.html').as_uri()} (open it in a browser)")
    print("\n=== Each student their own numbers: demo/variants graded with --variants ===\n", flush=True)
    variants_out = DEMO_OUT / "variants"
    run(grade, "grade", DEMO_VARIANTS, "--out", variants_out, "--variants", "--assignment", "part1_scores")
    for student in ("eli", "fay"):
        print(f"\n--- {student} gives the command her id once; it shows her numbers ---", flush=True)
        run(grade, "variant", "--id", student, "--dir", DEMO_VARIANTS.relative_to(ROOT) / student)
    print("\n--- fay's feedback (checks that lost points) ---\n", flush=True)
    run(grade, "show", variants_out / "students" / "fay" / "results.json", "--only-failed")
    print(f"\nThe gradebook is {DEMO_OUT / 'gradebook.csv'}; each student's results.json is in "
          f"{DEMO_OUT / 'students'}/<student>/.")
    return 0


def test(extra) -> int:
    """Run the whole test suite (two workers in parallel), slow and system tests included; a plain
    ``pytest`` is the quick run, without them (pyproject.toml)."""
    setup("test")
    # -m "": slow and system too; the ten slowest tests are listed at the end (CI's log keeps them).
    return run(PY, "-m", "pytest", "-n", "2", "-m", "", "--durations=10", *extra, check=False)


def docs(extra) -> int:
    """Build the documentation site into site/ with MkDocs, offline, in strict mode: any warning (a
    broken link or anchor, a page left out of the nav) fails the build. The command and settings
    references are generated from the code as it builds (docs/hooks/reference.py)."""
    setup("docs")
    code = run(PY, "-m", "mkdocs", "build", "--strict", "--config-file", ROOT / "mkdocs.yml",
               "--site-dir", ROOT / "site", *extra, check=False)
    if code == 0:
        print(f"\nThe site: {(ROOT / 'site' / 'index.html').as_uri()} (open it in a browser)", flush=True)
    return code


def main(argv) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if argv else 2
    command, extra = argv[0], argv[1:]
    if command == "setup":  # then every check recorded, so the first one is quick (and the sandbox tried)
        setup()
        code = run(BIN / "attn-grade", "prepare", check=False)
        if code == 0:
            print(f"\nready: activate it with '. {_shown(BIN / 'activate')}', then 'attn-grade list'", flush=True)
        return code
    if command == "instructor":
        setup("course")
        print()
        _pip.say(f"ready: activate it with '. {_shown(BIN / 'activate')}', then 'attn-grade course build' "
             f"(docs/instructors/nbgrader.md: A term with nbgrader)")
        return 0
    if command == "lessons":
        return lessons()
    if command == "demo":
        return demo()
    if command == "test":
        return test(extra)
    if command == "docs":
        return docs(extra)
    if command == "hub":  # the hub's own process: Ctrl-C must reach its clean-up, not a wrapper's kill
        setup("hub")
        os.execv(str(PY), [str(PY), "-m", "graders.classroom.hub.hub", *extra])
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
