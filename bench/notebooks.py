"""Benchmark: the same notebook submissions graded by ``nbgrader autograde`` and ``attn-grade grade``.

    python bench/notebooks.py [--students 10] [--jobs 2] [--keep DIR]

Sets up a copy of the nbgrader course (course/: its config and source
notebooks), runs ``nbgrader generate_assignment``, and submits, for each
made-up student, every released notebook with its answer cell filled from
tests/support/make_class.py's mix (reference solutions, correct alternatives,
tests/mutants/, stubs; a missing exercise gets the untouched released
notebook). 10 students = 70 notebooks. Then grades submitted/, in one run on
this machine:

* ``nbgrader autograde``, one assignment at a time (a kernel per notebook,
  every cell executed);
* ``attn-grade grade`` (answer cells extracted, sandboxed workers) as the
  command grades, with its cache folder on disk (here a fresh one of the
  bench's own), twice: *cold*, the first run on a machine, which records
  every check's plan against the reference; and *warm*, every later run:
  plans on disk, but the verdicts, passes and shrinks the cold run kept are removed
  first, so no answer of this class is known in advance (as a new week's
  class);
* ``attn-grade grade --assignment A`` for each assignment, warm, to set
  beside nbgrader's time for that assignment.

* the floor, in one process: for each notebook's extracted answer, a sandbox
  started, the file imported, and every call its checks make sent in one
  batch, as many students at a time as the batch's jobs: a fork, the
  student's own computation and one round trip per file, with no check run.
  (A hanging or crashing answer's batch stops there.)

It prints the wall times, per notebook and per student, the ratios, and
whether the scores agree. It asserts nothing about speed. Its helpers
(tests/support/nbclass.py) also build the classes of tests/test_nbgrade.py.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # tests/support: the class and the course, shared with the tests

from support.nbclass import (make_course, make_submissions, nbgrader_autograde,  # noqa: E402
                             nbgrader_scores, our_scores)


def ours(course: Path, out: Path, jobs: int, cache: Path, assignments=()) -> float:
    """Wall seconds of ``attn-grade grade`` on submitted/, plans kept in ``cache`` as the command keeps them."""
    from graders.classroom.grade import Options, run

    start = time.perf_counter()
    run(Options(course / "submitted", out, jobs=jobs, force=True, progress=False, plans=cache / "plans",
                assignments=tuple(assignments)), say=lambda *_: None)
    return time.perf_counter() - start


def forget_answers(cache: Path) -> None:
    """Keep the recorded plans; drop what was learnt of this class's answers (verdicts, passes, shrinks)."""
    for name in ("verdicts", "passes", "shrinks"):
        shutil.rmtree(cache / name, ignore_errors=True)


def floor(graded: Path, cache: Path, jobs: int) -> tuple:
    """(seconds, files, mean seconds per file of each exercise): every answer in graded/.sources sandboxed and imported, then all its checks'
    recorded calls made in one batch; ``jobs`` students at a time, as the batch grades them."""
    from concurrent.futures import ThreadPoolExecutor

    from graders import registry
    from graders.grading import engine
    from graders.sandbox.errors import StudentError
    from graders.sandbox.sandbox import Sandbox
    from graders.sandbox.submission import Submission

    plans = engine.caches(cache / "plans").plans
    calls = {}
    for ex in registry.EXERCISES:
        ref = engine.reference(ex.slug)
        found = [plans.get(fn, ref, solution=Path(ref.__file__)) for fn in engine.checks_of(ex.slug)]
        calls[ex.slug] = [c for plan in found if plan is not None for c in plan.calls]

    def student(folder: Path) -> list:
        box, took = Sandbox(folder), []
        try:
            for path in sorted(folder.glob("*.py")):
                begun = time.perf_counter()
                sub = Submission(path, sandbox=box)
                if sub.start().ready:
                    try:
                        sub.batch(calls[path.stem])
                    except StudentError:  # it hung or ended its worker: the batch stops there
                        pass
                took.append((path.stem, time.perf_counter() - begun))
        finally:
            box.kill()
        return took

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        took = [t for one in pool.map(student, sorted(p for p in (graded / ".sources").iterdir() if p.is_dir()))
                for t in one]
    per = {slug: [s for k, s in took if k == slug] for slug in calls}
    return time.perf_counter() - start, len(took), {k: sum(v) / len(v) for k, v in per.items() if v}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=10, help="students (7 notebooks each; default 10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=Path, help="build the course here instead of a temp folder")
    args = parser.parse_args()
    if args.students < 1 or args.jobs < 1:
        parser.error("--students and --jobs must be at least 1")
    from graders import registry

    work = args.keep or Path(tempfile.mkdtemp(prefix="attn-nbbench-"))
    course = make_course(work / "course")
    counts = make_submissions(course, args.students)
    n = sum(1 for _ in (course / "submitted").glob("*/*/*.ipynb"))
    print(f"{args.students} students, {n} notebooks: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print(f"machine: {os.cpu_count()} cores; attn-grade jobs: {args.jobs}; nbgrader autograde: one at a time")

    theirs_by = {a: nbgrader_autograde(course, [a]) for a in registry.ASSIGNMENTS}
    nb_wall = sum(theirs_by.values())
    cache = work / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    cold = ours(course, work / "graded", args.jobs, cache)
    forget_answers(cache)
    warm = ours(course, work / "graded", args.jobs, cache)
    mine_by = {}
    for a in registry.ASSIGNMENTS:
        forget_answers(cache)
        mine_by[a] = ours(course, work / "by-assignment" / a, args.jobs, cache, [a])

    low, files, low_by = floor(work / "graded", cache, args.jobs)
    s = args.students
    print(f"\n{'':28} {'wall':>8} {'per notebook':>13} {'per student':>12} {'ratio':>7}")
    print(f"{'nbgrader autograde':28} {nb_wall:7.1f}s {nb_wall / n:12.3f}s {nb_wall / s:11.2f}s")
    for name, wall in (("attn-grade grade, cold", cold), ("attn-grade grade, warm", warm)):
        print(f"{name:28} {wall:7.1f}s {wall / n:12.3f}s {wall / s:11.2f}s {nb_wall / wall:6.1f}x")
    print(f"{'floor (' + str(files) + ' answers)':28} {low:7.1f}s {low / n:12.3f}s {low / s:11.2f}s {nb_wall / low:6.1f}x")
    print("(cold: every plan recorded first, once per machine and version of the graders; warm: plans on disk;\n"
          " floor: per answer a sandbox, its import and all its checks' calls in one round trip; no check run)")

    print(f"\nper assignment, warm: {'notebooks':>9} {'nbgrader':>9} {'attn-grade':>11} {'ratio':>7}")
    for a in registry.ASSIGNMENTS:
        k = sum(1 for _ in (course / "submitted").glob(f"*/{a}/*.ipynb"))
        print(f"  {a:18} {k:9d} {theirs_by[a] / k:8.3f}s {mine_by[a] / k:10.3f}s {theirs_by[a] / mine_by[a]:6.1f}x")

    print("\nfloor per answer handed in, by exercise: "
          + ", ".join(f"{slug} {seconds:.3f}s" for slug, seconds in low_by.items()))

    theirs, mine = nbgrader_scores(course), our_scores(work / "graded")
    differ = sorted(k for k in theirs if abs(theirs[k] - mine.get(k, 0.0)) > 1e-6)
    print(f"\nsame score for {len(theirs) - len(differ)} of {len(theirs)} notebooks")
    for student, slug in differ[:20]:
        print(f"  {student}/{slug}: nbgrader {theirs[(student, slug)]:g}, attn-grade {mine.get((student, slug), 0):g}")
    print(f"\n(course and results in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
