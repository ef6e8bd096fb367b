#!/usr/bin/env python3
"""Set up and run the project with nothing but python3.

    python3 tasks.py demo    create .venv, install, grade the reference solutions and a sample class
    python3 tasks.py test    create .venv, install with the test extra, run the whole test suite
    python3 tasks.py setup   only create .venv and install

Each command creates (or reuses) the virtual environment in .venv and
reinstalls when pyproject.toml has changed since the last install.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("ATTN_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
DEMO_STUDENTS = ROOT / "demo" / "submissions"
DEMO_OUT = ROOT / "demo-out"


def run(*cmd, check=True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def setup() -> None:
    """Create .venv and install the project (editable) with the test extra."""
    stamp = VENV / ".installed"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.is_file() and stamp.read_text() == digest and PY.exists():
        return
    if not PY.exists():
        print(f"creating the virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]")
    stamp.write_text(digest)


def demo() -> int:
    """Grade the reference solutions, then the sample class, and show each student's feedback."""
    setup()
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
    print(f"\nThe gradebook is {DEMO_OUT / 'gradebook.csv'}; each student's results.json is in "
          f"{DEMO_OUT / 'students'}/<student>/.")
    return 0


def test(extra) -> int:
    """Run the whole test suite (two workers in parallel)."""
    setup()
    return run(PY, "-m", "pytest", "-n", "2", *extra, check=False)


def main(argv) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if argv else 2
    command, extra = argv[0], argv[1:]
    if command == "setup":
        setup()
        return 0
    if command == "demo":
        return demo()
    if command == "test":
        return test(extra)
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
