"""Benchmark: batch grading against one fresh Python interpreter per submission.

    python bench/batch.py [--students 200] [--jobs 2] [--baseline 24] [--keep DIR]

Makes a class of made-up submissions (tests/support/make_class.py: reference
solutions, correct alternatives, realistic mutants, stubs and missing files,
from a fixed seed), grades it with ``attn-grade grade``, then grades the first
``--baseline`` students again the naive way: a fresh ``attn-grade check``
interpreter per submission (Python, NumPy and SymPy imported every time,
Hypothesis run live), with the same number of parallel jobs. Both runs grade
with the same checks in the same sandbox; the script checks that they give
the same scores, then prints throughput, the per-submission median and the
ratio. It times real work and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))  # tests/support, shared with the tests

from support.make_class import make_class  # noqa: E402


def attn_grade():
    exe = Path(sys.executable).with_name("attn-grade")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "graders.cli"]


def batch(class_dir: Path, out: Path, jobs: int):
    """Grade the class with attn-grade grade; return (wall seconds, per-student seconds)."""
    from graders.batch.run import Options, run

    start = time.perf_counter()
    facts = run(Options(class_dir, out, jobs=jobs, force=True, progress=False), say=lambda *_: None)
    wall = time.perf_counter() - start
    return wall, [f["seconds"] for f in facts.values()]


def baseline(class_dir: Path, students, jobs: int):
    """A fresh interpreter per submission; return (wall seconds, per-student seconds, scores)."""

    def one(folder):
        start = time.perf_counter()
        proc = subprocess.run([*attn_grade(), "check", "--dir", str(folder), "--json"],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"attn-grade check failed for {folder}: {proc.stderr[-2000:]}")
        return folder.name, time.perf_counter() - start, json.loads(proc.stdout)["score"]

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = list(pool.map(one, [class_dir / s for s in students]))
    wall = time.perf_counter() - start
    return wall, [r[1] for r in rows], {r[0]: r[2] for r in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--baseline", type=int, default=24, help="students graded the naive way (0: skip)")
    parser.add_argument("--keep", type=Path, help="make the class and results here instead of a temp folder")
    args = parser.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="attn-bench-"))
    class_dir, out = work / "class", work / "graded"
    counts = make_class(class_dir, args.students)
    files = sum(counts.values())
    print(f"class: {args.students} students, {files} exercise slots: "
          + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print(f"machine: {os.cpu_count()} cores; jobs: {args.jobs}")

    wall, per = batch(class_dir, out, args.jobs)
    n = len(per)
    print("\nattn-grade grade (zygote, jailed workers, recorded checks replayed)")
    print(f"  {n} submissions in {wall:.1f} s: {n / wall:.2f} submissions/s, "
          f"{wall / n:.3f} s per submission amortised")
    print(f"  per-submission time inside a job: median {statistics.median(per):.3f} s")
    present = len(list(class_dir.glob("*/*.py")))  # exercise files handed in (missing ones cost ~nothing)
    print(f"  per exercise file handed in ({present}; one file is what one nbgrader notebook holds): "
          f"{wall / present:.3f} s amortised")

    if args.baseline:
        students = sorted(p.name for p in class_dir.iterdir())[: args.baseline]
        b_wall, b_per, b_scores = baseline(class_dir, students, args.jobs)
        mismatched = []
        for s in students:
            data = json.loads((out / "students" / s / "results.json").read_text())
            if abs(data["score"] - b_scores[s]) > 1e-9:
                mismatched.append(f"{s}: batch {data['score']} vs baseline {b_scores[s]}")
        k = len(b_per)
        print(f"\nbaseline: a fresh interpreter per submission (attn-grade check), first {k} students")
        print(f"  {k} submissions in {b_wall:.1f} s: {k / b_wall:.2f} submissions/s, "
              f"{b_wall / k:.3f} s per submission amortised")
        print(f"  per-submission time: median {statistics.median(b_per):.3f} s")
        b_present = sum(len(list((class_dir / st).glob("*.py"))) for st in students)
        print(f"  per exercise file handed in ({b_present}): {b_wall / b_present:.3f} s amortised")
        print(f"\nratio (baseline / batch, amortised per submission): {(b_wall / k) / (wall / n):.1f}x")
        print("same scores in both: " + ("yes" if not mismatched else "NO\n  " + "\n  ".join(mismatched)))
    if not args.keep:
        print(f"\n(class and results in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
