"""Replaying recorded checks (graders/plans.py) must not change any grade.

For every exercise, a few mutants (which exercise the live re-runs that
shrink counterexamples) and a correct alternative are graded live and
replayed; scores, outcomes and messages must be identical.
"""

from pathlib import Path

import pytest

from graders import registry
from graders.engine import ROOT, grade_file

HERE = Path(__file__).parent


def _sample(slug):
    mutants = sorted((HERE / "mutants" / slug).glob("*.py"))[:3]
    alternatives = sorted((HERE / "alternatives" / slug).glob("*.py"))[:1]
    return [ROOT / "solutions" / f"{slug}.py", *mutants, *alternatives]


CASES = [(e.slug, p) for e in registry.EXERCISES for p in _sample(e.slug)]


def _view(result):
    return [(c.name, c.points, c.outcome, c.message) for c in result.checks]


@pytest.mark.parametrize("slug, path", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_replay_gives_the_same_grade_as_a_live_run(slug, path):
    live = grade_file(slug, path, replay=False)
    replayed = grade_file(slug, path, replay=True)
    assert _view(replayed) == _view(live)
