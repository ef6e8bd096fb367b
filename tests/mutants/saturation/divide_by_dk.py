"""Mistake: scales the scores by 1/d_k instead of 1/sqrt(d_k)."""
# diagnosis: divided by d_k instead of √d_k
# lesson: no √d_k or dividing by d_k
import numpy as np


def dot_variances(d_k, trials, rng):
    s = np.sum(rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k)), axis=1)
    return float(np.var(s)), float(np.var(s / d_k))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = np.sum(q * k, axis=-1)
    if scaled:
        s = s / d_k
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
