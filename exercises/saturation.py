"""Exercise saturation: measure why attention divides scores by sqrt(d_k).

Take a query q and a key k in R^{d_k} whose entries are independent standard
normal numbers. Their score q·k is a sum of d_k products, so its variance
grows like d_k; dividing by sqrt(d_k) brings it back to about 1. Large scores
make the softmax saturate: almost all the weight lands on one key. Here you
measure both effects by simulation.

Write two functions:

* ``dot_variances(d_k, trials, rng)`` draws ``trials`` independent pairs
  (q, k), each a fresh vector of d_k standard normal entries, and returns the
  sample variance of the ``trials`` scores q·k, first unscaled and then of the
  same scores divided by sqrt(d_k) (one sample, not a second one), as a tuple
  of two floats (Python floats, or the NumPy scalars np.var returns).
* ``mean_top_weight(d_k, n_keys, trials, rng, scaled=True)``: in each trial,
  draw one query and ``n_keys`` keys (fresh standard normal vectors), compute
  the scores q·k_j (divided by sqrt(d_k) when ``scaled`` is True), turn them
  into softmax weights and keep the largest weight. Return the average of the
  ``trials`` largest weights as a float.

Rules:

* every random number comes from ``rng`` (a ``np.random.Generator``, e.g.
  ``rng.standard_normal(shape)``); do not use ``np.random.randn`` or create
  your own generator: the same seed must give the same result (however the
  arguments are written, by position or by name) and different seeds must
  give different results, for any number of trials;
* results are estimates, so they are graded with a tolerance derived from the
  number of trials; they must be close to what theory and large simulations
  give, at any d_k, and stay finite even unscaled at a very large d_k (scores
  of several hundred, where a plain ``np.exp`` overflows);
* keep it fast: 20000 trials with d_k = 256 should take well under a second
  or two (vectorise over trials, or keep the loop body small).

Read first: lesson 2, course/lessons/02_why_scale_by_sqrt_dk.ipynb.
Check yourself with ``attn-grade check saturation``.
"""

import numpy as np


def dot_variances(d_k: int, trials: int, rng: np.random.Generator) -> tuple[float, float]:
    """(variance of q·k, variance of q·k / sqrt(d_k)) over ``trials`` fresh pairs."""
    raise NotImplementedError("dot_variances is not written yet")


def mean_top_weight(d_k: int, n_keys: int, trials: int, rng: np.random.Generator,
                    scaled: bool = True) -> float:
    """Average over trials of the largest softmax weight of one query against n_keys keys."""
    raise NotImplementedError("mean_top_weight is not written yet")
