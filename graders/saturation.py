"""Grader for the saturation exercise: simulation results within sampling error.

The student's numbers are estimates, so value checks use tolerances derived
from the number of trials (n):

* dot_variances: q·k is a sum of d_k products q_i k_i (mean 0, variance 1,
  fourth moment 9), so Var(q·k) = d_k and E[(q·k)^4] = 3 d_k^2 + 6 d_k. The
  sample variance over n trials then has variance about
  (E[(q·k)^4] - d_k^2) / n = (2 d_k^2 + 6 d_k) / n. We allow
  VAR_Z = 5 standard errors around d_k; the scaled variance is the unscaled
  one divided by d_k, so its tolerance is the same divided by d_k.
* mean_top_weight: the top weight lies in [0, 1], so its standard deviation is
  at most 1/2 and the mean over n trials has standard error at most
  1/(2 sqrt(n)). We allow TOP_Z / (2 sqrt(n)) plus the precision of the figure
  compared with (the curriculum's large-sample estimates, see FIGURES).
"""

import math

import numpy as np

from .kit.checks import Fail, Rng, call_text, check, expect, expect_tuple, show

VAR_TRIALS, VAR_Z = 5000, 5.0  # tolerance at d_k = 256: 5 sqrt((2 d_k^2 + 6 d_k) / n) ~ 26
TOP_TRIALS, TOP_Z = 2000, 4.0
GLOBAL_STATE = ("draw every random number from the rng argument (rng.standard_normal); "
                "np.random.randn, np.random.normal and friends use NumPy's global state, "
                "which the seed does not control")


def _float(name, value):
    """A student's number as a Python float (numpy scalars arrive as floats)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Fail(f"{name} should be a Python float; got {show(value)}"
                   + (" (wrap the result in float(...))" if isinstance(value, np.ndarray) else ""))
    expect(math.isfinite(value), f"{name} is {value!r}; it should be a finite number")
    return float(value)


def _variances(sub, d_k, trials, seed):
    call = call_text("dot_variances", d_k, trials, Rng(seed))
    pair = expect_tuple(call, 2, sub.call("dot_variances", d_k, trials, Rng(seed)))
    return call, _float(f"the first value of {call}", pair[0]), _float(f"the second value of {call}", pair[1])


def _top(sub, d_k, n_keys, trials, seed, scaled=True, strict=True):
    call = call_text("mean_top_weight", d_k, n_keys, trials, Rng(seed), scaled=scaled)
    v = _float(call, sub.call("mean_top_weight", d_k, n_keys, trials, Rng(seed), scaled=scaled))
    if strict and abs(v - 1 / n_keys) < 1e-12:  # random scores are never all equal, so this is the mean weight
        raise Fail(f"{call} returned {show(v)}, exactly 1/n_keys: that is the average weight (the weights "
                   f"of a softmax sum to 1). Take the largest weight of each trial, then average those")
    return call, v


def _var_tol(d_k, trials=VAR_TRIALS):
    """VAR_Z standard errors of the sample variance of q·k (see the module docstring)."""
    return VAR_Z * math.sqrt((2 * d_k ** 2 + 6 * d_k) / trials)


@check("returns Python floats in the right ranges", 1, uses=("dot_variances", "mean_top_weight"))
def returns_floats(sub, ref):
    call, a, b = _variances(sub, 8, 1000, 0)
    expect(a > 0 and b > 0, f"{call} returned {show((a, b))}; a variance of random scores is positive")
    for scaled in (True, False):
        call, v = _top(sub, 8, 5, 500, 0, scaled)
        expect(1 / 5 < v <= 1, f"{call} returned {show(v)}; the largest of 5 softmax weights lies between "
                               f"1/5 and 1, and so does its average")


@check("all randomness comes from rng", 1.5, uses=("dot_variances", "mean_top_weight"))
def rng_discipline(sub, ref):
    runs = {"dot_variances": lambda s: _variances(sub, 16, 500, s)[1:],
            "mean_top_weight": lambda s: _top(sub, 16, 10, 300, s, strict=False)[1]}
    args = {"dot_variances": (16, 500), "mean_top_weight": (16, 10, 300)}
    for name, run in runs.items():
        first, again, other = run(7), run(7), run(8)
        same = call_text(name, *args[name], Rng(7))
        expect(first == again, f"{same} gave {show(first)} and then {show(again)}: the same seed must give "
                               f"the same result; {GLOBAL_STATE}")
        mean_weight = isinstance(first, float) and abs(first - 1 / 10) < 1e-12  # other checks name it
        expect(first != other or mean_weight,
               f"{same} and {call_text(name, *args[name], Rng(8))} both gave {show(first)}: different seeds "
               f"must give different results. Use the rng you are given: do not create your own generator "
               f"with a fixed seed inside the function, and do not call np.random.randn, np.random.normal "
               f"and friends, which use NumPy's global state instead of the rng")


@check("scaling lowers the variance and the top weight", 1, uses=("dot_variances", "mean_top_weight"))
def scaling_lowers(sub, ref):
    call, a, b = _variances(sub, 16, 2000, 3)
    expect(a > b, f"{call} returned {show((a, b))}: the first value (unscaled q·k) should be larger than the "
                  f"second (q·k divided by sqrt(d_k)); are the two swapped?")
    call_u, u = _top(sub, 64, 10, 1000, 4, scaled=False)
    call_s, s = _top(sub, 64, 10, 1000, 4, scaled=True)
    expect(u != s, f"{call_u} and {call_s} both returned {show(u)}: the scaled flag seems to be ignored")
    expect(u > s, f"{call_u} returned {show(u)} but {call_s} returned {show(s)}: unscaled scores are larger, "
                  f"so their softmax is more peaked; is the scaled flag inverted?")


@check("each trial draws a fresh query and key", 0.5, uses=("dot_variances",))
def fresh_draws(sub, ref):
    d_k, n = 16, 5000
    est = {seed: _variances(sub, d_k, n, seed)[1] for seed in range(20, 26)}
    lo, hi = min(est, key=est.get), max(est, key=est.get)
    allowed = 2 * _var_tol(d_k, n)  # two estimates each within VAR_Z standard errors
    expect(est[hi] - est[lo] <= allowed,
           f"{call_text('dot_variances', d_k, n, Rng(lo))} gave {show(est[lo])} but "
           f"{call_text('dot_variances', d_k, n, Rng(hi))} gave {show(est[hi])}: over {n} trials the estimate "
           f"should vary far less between seeds (sampling error about sqrt((2 d_k² + 6 d_k) / trials)). "
           f"Does every trial draw a fresh query and a fresh key, not one query reused for all?")
