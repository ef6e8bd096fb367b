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


HANGS_ON_WIDE_ROWS = """
import numpy as np

def softmax(z, axis=-1):
    z = np.asarray(z, dtype=float)
    while z.ndim > 1 and z.shape[-1] > 2:
        pass
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
"""


def test_a_call_that_hangs_in_a_batch_is_waited_for_once_and_graded_as_live(tmp_path, monkeypatch):
    from graders.sandbox.errors import Timeout
    from graders.sandbox.sandbox import Sandbox

    path = tmp_path / "softmax.py"
    path.write_text(HANGS_ON_WIDE_ROWS)
    timeouts = []
    receive = Sandbox._receive

    def counting(self, timeout, doing):
        try:
            return receive(self, timeout, doing)
        except Timeout:
            timeouts.append(doing)
            raise

    monkeypatch.setattr(Sandbox, "_receive", counting)
    live = grade_file("softmax", path, replay=False, call_timeout=1.0)
    assert timeouts == ["running softmax()"]
    timeouts.clear()
    replayed = grade_file("softmax", path, call_timeout=1.0)
    assert timeouts == ["running softmax()"], "the call that hung in the batch was made, and waited for, again"
    assert view(replayed) == view(live) and "timed out after 1 s" in replayed.checks[0].message + \
        " ".join(c.message for c in replayed.checks)
