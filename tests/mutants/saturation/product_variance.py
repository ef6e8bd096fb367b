"""Mistake: takes the variance of the single products q_i k_i instead of their sum q·k."""
# diagnosis: the single products q_i k_i
import numpy as np


def dot_variances(d_k, trials, rng):
    prods = rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k))
    return float(np.var(prods)), float(np.var(prods / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = np.sum(q * k, axis=-1)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.max(axis=1).mean())
