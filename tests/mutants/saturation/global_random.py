"""Mistake: draws from NumPy's global random state (np.random.randn) and ignores rng."""
# diagnosis: NumPy's global state
# lesson: an rng ignored or only partly used
import numpy as np


def dot_variances(d_k, trials, rng):
    s = np.sum(np.random.randn(trials, d_k) * np.random.randn(trials, d_k), axis=1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = np.random.randn(trials, 1, d_k)
    k = np.random.randn(trials, n_keys, d_k)
    s = np.sum(q * k, axis=-1)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
