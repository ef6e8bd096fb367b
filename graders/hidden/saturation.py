"""Hidden checks for saturation: they compare with the reference solution and are never shipped."""

from functools import lru_cache
import math

import numpy as np

from ..kit.checks import Fail, check, show
from ..saturation import TOP_TRIALS, TOP_Z, VAR_TRIALS, _top, _var_tol, _variances

# Trials per d_k for the figures: the cost of a trial grows with d_k, and the figures at
# d_k = 256 (0.9326 unscaled, 0.318 scaled) lie far from each other and from every known
# mistake, so fewer trials there still separate them (tolerance TOP_Z / (2 sqrt(trials))).
TOP_TRIALS_AT = {16: TOP_TRIALS, 64: TOP_TRIALS // 2, 256: TOP_TRIALS // 4}


# (d_k, scaled) -> (figure, its precision), 10 keys, from CURRICULUM.md.
FIGURES = {
    (16, False): (0.7275, 0.0005), (64, False): (0.8646, 0.0005), (256, False): (0.9326, 0.0005),
    (16, True): (0.318, 0.0025), (64, True): (0.3192, 0.0005), (256, True): (0.318, 0.0025),
}


@lru_cache(maxsize=None)
def _divided_by_dk(d_k, n_keys):
    """Mean top weight when the scores are divided by d_k (a common mistake)."""
    rng = np.random.default_rng(2024)
    s = np.einsum("td,tkd->tk", rng.standard_normal((2000, d_k)), rng.standard_normal((2000, n_keys, d_k))) / d_k
    a = np.exp(s - s.max(axis=1, keepdims=True))
    return float((a / a.sum(axis=1, keepdims=True)).max(axis=1).mean())


@check("dot_variances matches theory at d_k = 16, 64, 256", 2, hidden=True, uses=("dot_variances",))
def variances_match(sub, ref):
    failures = []
    for seed, d_k in enumerate((16, 64, 256), start=31):
        call, a, b = _variances(sub, d_k, VAR_TRIALS, seed)
        tol = _var_tol(d_k)
        if abs(a - d_k) <= tol and abs(b - 1) <= tol / d_k:
            continue

        def near(x, target):
            return abs(x - target) <= 0.15 * abs(target)
        if near(a, d_k) and near(b, 1 / d_k):
            hint = "it looks like you divided by d_k instead of sqrt(d_k)"
        elif near(a, 1) and near(b, d_k):
            hint = "it looks like the two values are swapped: unscaled first, then scaled"
        elif near(a, math.sqrt(d_k)) and near(b, 1):
            hint = "it looks like the standard deviation, not the variance"
        elif near(a, 1):
            hint = ("the unscaled variance does not grow with d_k: it looks like the variance of the single "
                    "products q_i k_i rather than of their sum q·k")
        else:
            hint = ""
        which = "first (unscaled)" if abs(a - d_k) > tol else "second (scaled)"
        failures.append(f"{call} returned {show((a, b))}: the {which} value is further from the theory than "
                        f"sampling error over {VAR_TRIALS} trials allows" + (f". Hint: {hint}" if hint else ""))
    if failures:
        raise Fail(f"{failures[0]}; {len(failures)} of 3 d_k values fail", fraction=1 - len(failures) / 3)


@check("mean_top_weight matches large simulations, scaled and unscaled", 2, hidden=True, uses=("mean_top_weight",))
def top_weight_matches(sub, ref):
    cases = [(d_k, 10, scaled) + FIGURES[d_k, scaled] for d_k in (16, 64, 256) for scaled in (False, True)]
    cases.append((16, 4, True, _reference_figure(ref, 16, 4), 1 / (2 * math.sqrt(100_000))))
    failures = []
    for seed, (d_k, n_keys, scaled, figure, precision) in enumerate(cases, start=41):
        trials = TOP_TRIALS_AT[d_k]
        call, v = _top(sub, d_k, n_keys, trials, seed, scaled)
        tol = TOP_Z / (2 * math.sqrt(trials)) + precision
        if abs(v - figure) <= tol:
            continue
        other = FIGURES.get((d_k, not scaled), (None,))[0]
        if other is not None and abs(v - other) <= tol:
            hint = ("it matches the unscaled result: is the scaled flag ignored or inverted?" if scaled else
                    "it matches the scaled result: with scaled=False the raw scores q·k go into the softmax")
        elif scaled and abs(v - _divided_by_dk(d_k, n_keys)) <= tol:
            hint = "it looks like you divided the scores by d_k instead of sqrt(d_k)"
        else:
            hint = ""
        side = "too large" if v > figure else "too small"
        failures.append(f"{call} returned {show(v)}, {side} for an average over {trials} trials (allowed "
                        f"error {tol:.3g})" + (f". Hint: {hint}" if hint else ""))
    if failures:
        raise Fail(f"{failures[0]}; {len(failures)} of {len(cases)} settings fail",
                   fraction=1 - len(failures) / len(cases))


@lru_cache(maxsize=None)
def _reference_figure(ref, d_k, n_keys):
    """The reference solution's estimate over 100000 trials, fixed seed (no curriculum figure for it)."""
    return ref.mean_top_weight(d_k, n_keys, 100_000, np.random.default_rng(99))
