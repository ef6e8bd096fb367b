"""Benchmark: does batch grading scale with the class? Time per student, peak memory, size of OUT.

    python bench/scale.py [--sizes 100,500,2000] [--workers 2] [--keep DIR]

For each class size, makes a class (tests/support/make_class.py's mix of reference
solutions, correct alternatives, realistic mutants, stubs and missing files, from
a fixed seed; one student in fifty also hands in a file from tests/hostile/ in
place of one exercise) and grades it twice on this machine: with the process pool
(``--jobs N``) and with a Dask LocalCluster of N single-threaded workers
(``--cluster local:N``). Each grading runs in a child process of its own, so its
peak memory (the grading process's own resident set, VmHWM; the sandboxes and
workers it starts are not counted) is that run's alone. Prints, per size and
way, the wall time, the time per student, the peak memory and the size of OUT,
and whether the two ways gave the same gradebook. It times real work and
asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))  # tests/support, shared with the tests

from support.make_class import make_class  # noqa: E402

HOSTILE = HERE.parent / "tests" / "hostile"
HOSTILE_EVERY = 50  # one student in fifty hands in a hostile file


def make_scale_class(folder: Path, students: int) -> dict:
    """The bench mix, and every HOSTILE_EVERY-th student trades one exercise for a hostile file."""
    counts = make_class(folder, students)
    cases = sorted(p for p in HOSTILE.iterdir() if p.is_dir() and any(p.glob("*.py")))
    counts["hostile"] = 0
    for i in range(0, students, HOSTILE_EVERY):
        case = cases[(i // HOSTILE_EVERY) % len(cases)]
        student = folder / f"student_{i:03d}"
        for path in sorted(case.glob("*.py")):
            shutil.copyfile(path, student / path.name)
            counts["hostile"] += 1
    return counts


def out_size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def grade_child(class_dir: Path, out: Path, workers: int, cluster: bool) -> dict:
    """Grade in this process (run as a child of main); return its wall time and peak memory."""
    from graders.batch.run import Options, run

    opts = Options(class_dir, out, jobs=workers, force=True, progress=False,
                   cluster=f"local:{workers}" if cluster else "")
    start = time.perf_counter()
    facts = run(opts, say=lambda *_: None)
    wall = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return {"wall": wall, "peak_kb": peak_kb, "graded": len(facts)}


def grade(class_dir: Path, out: Path, workers: int, cluster: bool) -> dict:
    args = [sys.executable, __file__, "--child", str(class_dir), str(out), str(workers)]
    proc = subprocess.run(args + (["--cluster"] if cluster else []), capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"grading {class_dir} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    fact = json.loads(proc.stdout.strip().splitlines()[-1])
    fact["out_bytes"] = out_size(out)
    return fact


def same_results(a: Path, b: Path) -> bool:
    """The gradebook and every results.json byte-identical between two OUT folders."""
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.name in ("results.json", "gradebook.csv"))
    theirs = sorted(p.relative_to(b) for p in b.rglob("*") if p.name in ("results.json", "gradebook.csv"))
    return files == theirs and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,500,2000", help="class sizes, comma-separated (default 100,500,2000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="pool jobs, and LocalCluster workers (default: the number of cores)")
    parser.add_argument("--pool-only", action="store_true", help="skip the LocalCluster (no Dask installed)")
    parser.add_argument("--keep", type=Path, help="make the classes and results here instead of a temp folder")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--cluster", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        class_dir, out, workers = args.child
        print(json.dumps(grade_child(Path(class_dir), Path(out), int(workers), args.cluster)))
        return 0
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes takes whole numbers separated by commas, not {args.sizes!r}")
    if not sizes or min(sizes) < 1 or args.workers < 1:
        parser.error("--sizes and --workers must be at least 1")
    ways = ["pool"] + ([] if args.pool_only else ["cluster"])
    work = args.keep or Path(tempfile.mkdtemp(prefix="attn-scale-"))
    print(f"machine: {os.cpu_count()} cores; {args.workers} pool jobs / LocalCluster workers; "
          f"classes in {work}")
    rows = []
    for n in sizes:
        class_dir = work / f"class-{n}"
        shutil.rmtree(class_dir, ignore_errors=True)
        counts = make_scale_class(class_dir, n)
        print(f"\n{n} students: " + ", ".join(f"{v} {k}" for k, v in counts.items()), flush=True)
        outs = {}
        for way in ways:
            outs[way] = work / f"out-{n}-{way}"
            shutil.rmtree(outs[way], ignore_errors=True)
            fact = grade(class_dir, outs[way], args.workers, way == "cluster")
            rows.append((n, way, fact))
            print(f"  {way:8} {fact['wall']:8.1f} s  {fact['wall'] / n:.3f} s/student  "
                  f"peak {fact['peak_kb'] / 1024:6.0f} MB  OUT {fact['out_bytes'] / 1e6:7.2f} MB", flush=True)
        if len(outs) == 2:
            print("  same gradebook and results.json both ways: "
                  + ("yes" if same_results(outs["pool"], outs["cluster"]) else "NO"))
    print("\n| students | way | wall | per student | peak memory | OUT |")
    print("|---:|---|---:|---:|---:|---:|")
    for n, way, fact in rows:
        print(f"| {n} | {way} | {fact['wall']:.1f} s | {fact['wall'] / n:.3f} s | "
              f"{fact['peak_kb'] / 1024:.0f} MB | {fact['out_bytes'] / 1e6:.2f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
