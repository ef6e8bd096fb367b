"""Benchmark: the same notebook submissions graded by ``nbgrader autograde`` and ``attn-grade grade``.

    python bench/notebooks.py [--students 10] [--jobs 2] [--keep DIR]

Sets up a copy of the nbgrader course (course/: its config and source
notebooks), runs
``nbgrader generate_assignment``, and submits, for each made-up student, every
released notebook with its answer cell filled from tests/support/make_class.py's mix
(reference solutions, correct alternatives, tests/mutants/, stubs; a missing
exercise gets the untouched released notebook). 10 students = 70 notebooks.
Then grades submitted/ twice, in one run on this machine: ``nbgrader
autograde`` (a kernel per notebook, every cell executed) and ``attn-grade grade``
(answer cells extracted, sandboxed workers), prints both wall times, the time
per notebook, the ratio and whether the scores agree. It asserts nothing about
speed. Its helpers (tests/support/nbclass.py) also build the classes of tests/test_nbgrade.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # tests/support: the class and the course, shared with the tests

from support.nbclass import (make_course, make_submissions, nbgrader_autograde,  # noqa: E402
                             nbgrader_scores, our_scores)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=10, help="students (7 notebooks each; default 10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=Path, help="build the course here instead of a temp folder")
    args = parser.parse_args()
    if args.students < 1 or args.jobs < 1:
        parser.error("--students and --jobs must be at least 1")
    work = args.keep or Path(tempfile.mkdtemp(prefix="attn-nbbench-"))
    course = make_course(work / "course")
    counts = make_submissions(course, args.students)
    n = sum(1 for _ in (course / "submitted").glob("*/*/*.ipynb"))
    print(f"{args.students} students, {n} notebooks: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print(f"machine: {os.cpu_count()} cores; attn-grade jobs: {args.jobs}; nbgrader autograde: one at a time")

    nb_wall = nbgrader_autograde(course)
    print(f"\nnbgrader autograde: {n} notebooks in {nb_wall:.1f} s, {nb_wall / n:.3f} s per notebook")
    from graders.classroom.grade import Options, run

    start = time.perf_counter()
    run(Options(course / "submitted", work / "graded", jobs=args.jobs, force=True, progress=False),
        say=lambda *_: None)
    ours = time.perf_counter() - start
    print(f"attn-grade grade:   {n} notebooks in {ours:.1f} s, {ours / n:.3f} s per notebook")
    print(f"ratio (nbgrader autograde / attn-grade grade): {nb_wall / ours:.1f}x")
    theirs, mine = nbgrader_scores(course), our_scores(work / "graded")
    differ = sorted(k for k in theirs if abs(theirs[k] - mine.get(k, 0.0)) > 1e-6)
    print(f"same score for {len(theirs) - len(differ)} of {len(theirs)} notebooks")
    for student, slug in differ[:20]:
        print(f"  {student}/{slug}: nbgrader {theirs[(student, slug)]:g}, attn-grade {mine.get((student, slug), 0):g}")
    print(f"\n(course and results in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
