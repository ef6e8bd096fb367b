"""Mistake: mean_top_weight draws n_keys - 1 keys (an off-by-one in the shape), so with two
keys there is one, and its weight is always 1."""
# diagnosis: none
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=-1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys - 1, d_k))
    s = np.sum(q * k, axis=-1)  # (trials, n_keys - 1)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
