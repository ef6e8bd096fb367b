"""Mistake: mean_top_weight draws one query and reuses it for every trial (dot_variances is right)."""
# diagnosis: should vary far less between seeds
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=-1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal(d_k)  # one query for all the trials
    k = rng.standard_normal((trials, n_keys, d_k))
    s = k @ q  # (trials, n_keys)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
