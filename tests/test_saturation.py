"""The figures the saturation grader compares with agree with the reference's own simulations."""

import math

import numpy as np

from graders.grading.engine import reference
from graders.hidden.saturation import FOUR_KEYS

ref = reference("saturation")


def test_the_four_keys_figure_is_the_references_estimate():
    figure, precision = FOUR_KEYS
    estimate = ref.mean_top_weight(16, 4, 100_000, np.random.default_rng(99))
    assert abs(estimate - figure) <= precision, (
        f"the reference now gives {estimate!r} (seed 99, 100,000 trials): store that as FOUR_KEYS")


def test_the_four_keys_figure_holds_for_another_seed():
    figure, precision = FOUR_KEYS
    trials = 200_000
    estimate = ref.mean_top_weight(16, 4, trials, np.random.default_rng(2026))
    assert abs(estimate - figure) <= precision + 4 * 0.5 / math.sqrt(trials)
