"""Generate a made-up class of submissions from the project's own corpora.

Each student gets, per exercise, one of: the reference solution, a correct
alternative, a realistic mutant, the untouched stub, or nothing. The choice is
drawn from a fixed seed, so the same class is made every time.

    python tests/support/make_class.py OUT [--students 200] [--seed 2026]
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIX = (("solution", 0.25), ("alternative", 0.25), ("mutant", 0.35), ("stub", 0.05), ("missing", 0.10))


def sources(slug):
    return {
        "solution": [ROOT / "solutions" / f"{slug}.py"],
        "alternative": sorted((ROOT / "tests" / "alternatives" / slug).glob("*.py")),
        "mutant": sorted((ROOT / "tests" / "mutants" / slug).glob("*.py")),
        "stub": [ROOT / "exercises" / f"{slug}.py"],
        "missing": [None],
    }


def make_class(out: Path, students: int = 200, seed: int = 2026) -> dict:
    """Write out/student_NNN/<slug>.py; return how many files of each kind."""
    from graders import registry

    rng = random.Random(seed)
    kinds, weights = zip(*MIX)
    counts = dict.fromkeys(kinds, 0)
    pools = {e.slug: sources(e.slug) for e in registry.EXERCISES}
    for i in range(students):
        folder = out / f"student_{i:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for slug, pool in pools.items():
            kind = rng.choices(kinds, weights)[0]
            src = rng.choice(pool[kind])
            counts[kind] += 1
            if src is not None:
                shutil.copyfile(src, folder / f"{slug}.py")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(make_class(args.out, args.students, args.seed))


if __name__ == "__main__":
    main()
