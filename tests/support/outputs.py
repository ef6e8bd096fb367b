"""What a change that means no behaviour change must leave byte-identical: the demo's outputs,
a made-up class of 40 and a class in nbgrader's layout, each graded from scratch.

    python tests/support/outputs.py OUT [--repo CHECKOUT]

grades with the graders of CHECKOUT (default: this one) and writes OUT/demo, OUT/class40 and
OUT/nbgrader: what each command printed (stdout.txt) and every file it wrote. Run it for the
checkout before a change and after it, then ``diff -r BEFORE AFTER``. The inputs (demo/submissions,
the classes) always come from this checkout, so both sides grade the same files.

What differs from run to run on its own is written as a fixed word: seconds taken, the paths
of the folders graded and written (they hold OUT), the process holding OUT's lock, and what
any change to the graders' own files changes: results.json's digest, and the plans' keys with
what the class report derives from them (a file's behaviour signature, the call half of each
differ entry, a group's name). Nothing else is touched: scores, feedback, the answers' half of
each differ entry and every other byte must be the same. (With --repo, the demo's summary names
the solutions folder by its path from here.)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT))

# "3.2 s", "in 0.41 s", "0.123 s per ...", "duration": 1.23, "execution_time": 0.5
VARIES = [(re.compile(r"\b\d+(\.\d+)? ?(s|ms|seconds)\b"), "<time>"),
          (re.compile(r'"(duration|execution_time|seconds|elapsed|wall|cpu_seconds)": [0-9.e-]+'), r'"\1": <time>'),
          # results.json's digest covers the graders' own files, so it changes with any change to them
          (re.compile(r'"digest": "[0-9a-f]{64}"'), '"digest": "<digest>"'),
          # so do the plans' keys (grading/plancache.py), and with them what behaviour.py derives from a
          # key: a file's signature, the call half of each differ entry ("<call>:<answer>": the answer
          # half stays), and a group's name (exercise.signature) in copying.json and the report
          (re.compile(r'"signature": "[0-9a-f]{16}"'), '"signature": "<signature>"'),
          (re.compile(r'"[0-9a-f]{12}:(?=[0-9a-fx]{15,16}"|[a-z])'), '"<call>:'),
          (re.compile(r"\b([a-z_]+)\.[0-9a-f]{16}\b"), r"\1.<signature>"),
          (re.compile(r"\(process \d+\)"), "(process <pid>)")]  # OUT's lock: who holds it


def _normal(text: str, places: dict) -> str:
    for path, word in places.items():
        text = text.replace(path, word)
    for pattern, word in VARIES:
        text = pattern.sub(word, text)
    return text


def _attn(repo: Path, *args) -> str:
    """The command, run from ``repo`` (``-m`` imports from the current folder before PYTHONPATH)."""
    env = {**os.environ, "PYTHONPATH": str(repo), "COLUMNS": "80", "ATTN_GRADE_CACHE": "off"}
    done = subprocess.run([sys.executable, "-m", "graders.cli", *map(str, args)], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=3600)
    return f"$ attn-grade {' '.join(map(str, args))}\n[exit {done.returncode}]\n{done.stdout}{done.stderr}\n"


def _seal(folder: Path, said: str, places: dict) -> None:
    """Write what was said, and make every text file the run wrote free of what varies."""
    (folder / "stdout.txt").write_text(_normal(said, places), encoding="utf-8")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in {".json", ".csv", ".txt", ".html", ".md", ".lock"}:
            path.write_text(_normal(path.read_text(encoding="utf-8"), places), encoding="utf-8")


def demo(repo: Path, out: Path) -> None:
    out.mkdir(parents=True)
    grade = out / "graded"
    said = _attn(repo, "check", "--dir", ROOT / "solutions")
    said += _attn(repo, "grade", ROOT / "demo" / "submissions", "--out", grade, "--no-progress")
    for student in sorted(p.name for p in (ROOT / "demo" / "submissions").iterdir() if p.is_dir()):
        said += _attn(repo, "show", grade / "students" / student / "results.json")
    said += _attn(repo, "report", grade)
    said += _attn(repo, "export", grade, "--format", "canvas", "--to", "-")
    _seal(out, said, {str(grade): "<OUT>", str(ROOT): "<REPO>"})


def class40(repo: Path, out: Path) -> None:
    from support.make_class import make_class

    out.mkdir(parents=True)
    klass = out / "class"
    make_class(klass, 40, seed=2026)
    said = _attn(repo, "grade", klass, "--out", out / "graded", "--jobs", "2", "--no-progress")
    _seal(out, said, {str(out / "graded"): "<OUT>", str(klass): "<CLASS>", str(ROOT): "<REPO>"})


def nbgrader(repo: Path, out: Path) -> None:
    from support.nbclass import make_course, make_submissions

    out.mkdir(parents=True)
    course = make_course(out / "course")
    make_submissions(course, 5)
    said = _attn(repo, "grade", course / "submitted", "--out", out / "graded", "--jobs", "2", "--no-progress")
    shutil.rmtree(course)  # nbgrader's own files (its database, release/) are not ours to compare
    _seal(out, said, {str(out / "graded"): "<OUT>", str(course): "<COURSE>", str(ROOT): "<REPO>"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="a folder to create")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout whose graders grade (default: this)")
    args = parser.parse_args()
    if args.out.exists():
        parser.error(f"{args.out} exists; give a new folder")
    repo = args.repo.resolve()
    with tempfile.TemporaryDirectory(prefix="attn-outputs-") as tmp:
        for name, make in (("demo", demo), ("class40", class40), ("nbgrader", nbgrader)):
            print(f"{name} ...", flush=True)
            make(repo, Path(tmp) / name)
        shutil.copytree(tmp, args.out)
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
