"""Replaying recorded checks (graders/plans.py) must not change any grade.

For every exercise, a few mutants (which exercise the live re-runs that
shrink counterexamples) and a correct alternative are graded live and
replayed; scores, outcomes and messages must be identical.
"""

import pytest

from cases import cases, view
from graders.grading.engine import grade_file

CASES = cases(mutants=3)


@pytest.mark.parametrize("slug, path", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_replay_gives_the_same_grade_as_a_live_run(slug, path):
    live = grade_file(slug, path, replay=False)
    replayed = grade_file(slug, path, replay=True)
    assert view(replayed) == view(live)


def test_examples_do_not_depend_on_which_modules_are_loaded(tmp_path):
    """Hypothesis would mix numbers from the source of loaded local modules into its examples."""
    import sys
    import types

    from hypothesis import given, settings

    from graders.kit.lazy import resolve
    from graders.kit.props import GRADING
    from graders.kit.strategies import qkv

    def draws():
        seen = []

        @settings(GRADING, max_examples=60)
        @given(resolve(qkv()))  # the strategy itself (the graders' are built when drawn, kit/lazy.py)
        def collect(x):
            seen.append(repr(x))

        collect()
        return seen

    before = draws()
    source = tmp_path / "lots_of_constants.py"
    source.write_text("VALUES = [" + ", ".join(str(n) for n in range(1000, 1400)) + ", 0.123456, -7.77]\n")
    module = types.ModuleType("lots_of_constants")
    module.__file__ = str(source)
    sys.modules["lots_of_constants"] = module
    try:
        assert draws() == before
    finally:
        del sys.modules["lots_of_constants"]
