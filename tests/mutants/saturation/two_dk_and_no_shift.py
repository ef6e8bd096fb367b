"""Mistakes, two at once: dot_variances divides the scores by d_k instead of √d_k, and mean_top_weight takes
np.exp of the scores without subtracting each trial's largest, so unscaled scores at a large d_k overflow to
NaN. Written blind, without reading the graders."""
# diagnosis: divided by d_k instead of √d_k
# diagnosis: Subtract each trial's largest score before np.exp
# lesson: no √d_k or dividing by d_k
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=1)
    return float(np.var(s)), float(np.var(s / d_k))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q * k).sum(-1)
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s)
    return float((e / e.sum(-1, keepdims=True)).max(-1).mean())
