"""Mistake: exponentiates the raw scores, so unscaled scores at a large d_k overflow to inf and give NaN."""
# diagnosis: Subtract each trial's largest score before np.exp
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=-1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q @ k.transpose(0, 2, 1))[:, 0, :]
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return float(w.max(axis=-1).mean())
