"""Mistake: the second value of dot_variances is Var(q·k) / √d_k (as if Var(X/c) = Var(X)/c) instead of the
variance of q·k / √d_k, so it is about √d_k, not 1. Written blind, without reading the graders."""
# diagnosis: none
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=1)
    v = np.var(s)
    return float(v), float(v / np.sqrt(d_k))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q * k).sum(-1)
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return float(p.max(-1).mean())
