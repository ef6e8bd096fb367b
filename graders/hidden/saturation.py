"""Hidden checks for saturation: they compare with the reference solution and are never shipped."""

import math

from ..kit import check, show
from ..saturation import DOT, FIGURES, TOP, TOP_TRIALS, TOP_Z, VAR_TRIALS, top_of, var_tol, variances_of

# Trials per d_k for the figures: the cost of a trial grows with d_k, and the figures at
# d_k = 256 (0.9326 unscaled, 0.318 scaled) lie far from each other and from every known
# mistake, so fewer trials there still separate them (tolerance TOP_Z / (2 sqrt(trials))).
TOP_TRIALS_AT = {16: TOP_TRIALS, 64: TOP_TRIALS // 2, 256: TOP_TRIALS // 4}
# Four keys at d_k = 16, scaled: no curriculum figure, so the reference solution's estimate over
# 100,000 trials (seed 99) and its precision. Stored, not worked out at each grading: that cost
# every check of saturation 0.2 s. tests/test_saturation.py holds it to the reference.
FOUR_KEYS = (0.511702336632417, 1 / (2 * math.sqrt(100_000)))


@check("dot_variances matches theory at d_k = 16, 64, 256", 1, hidden=True, uses=("dot_variances",))
def variances_match(sub, ref):
    failures = []
    for seed, d_k in enumerate((16, 64, 256), start=31):
        call, a, b = variances_of(sub, d_k, VAR_TRIALS, seed)
        tol = var_tol(d_k)
        if abs(a - d_k) <= tol and abs(b - 1) <= tol / d_k:
            continue
        which = "first (unscaled)" if abs(a - d_k) > tol else "second (scaled)"
        failures.append(f"{call} returned {show((a, b))}: the {which} value is further from the theory than "
                        f"sampling error over {VAR_TRIALS} trials allows")
    if failures:
        DOT.fail(sub, f"{failures[0]}; {len(failures)} of 3 d_k values fail.", fraction=1 - len(failures) / 3)


@check("mean_top_weight matches large simulations, scaled and unscaled", 1, hidden=True, uses=("mean_top_weight",))
def top_weight_matches(sub, ref):
    cases = [(d_k, 10, scaled) + FIGURES[d_k, scaled] for d_k in (16, 64, 256) for scaled in (False, True)]
    cases.append((16, 4, True) + FOUR_KEYS)
    failures = []
    for seed, (d_k, n_keys, scaled, figure, precision) in enumerate(cases, start=41):
        trials = TOP_TRIALS_AT[d_k]
        call, v = top_of(sub, d_k, n_keys, trials, seed, scaled)
        tol = TOP_Z / (2 * math.sqrt(trials)) + precision
        if abs(v - figure) <= tol:
            continue
        side = "too large" if v > figure else "too small"
        failures.append(f"{call} returned {show(v)}, {side} for an average over {trials} trials (allowed "
                        f"error {tol:.3g})")
    if failures:
        TOP.fail(sub, f"{failures[0]}; {len(failures)} of {len(cases)} settings "
                      "fail.", fraction=1 - len(failures) / len(cases))

