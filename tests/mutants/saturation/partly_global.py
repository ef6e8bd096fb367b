"""Mistake: the queries come from rng but the keys from np.random, NumPy's global state."""
# diagnosis: NumPy's global state
# lesson: an rng ignored or only partly used
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = np.random.standard_normal((trials, d_k))
    s = (q * k).sum(axis=1)
    return float(s.var()), float((s / np.sqrt(d_k)).var())


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = np.random.standard_normal((trials, n_keys, d_k))
    s = np.sum(q * k, axis=-1)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
