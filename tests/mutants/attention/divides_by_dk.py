"""Mistake: divides the scores by d_k instead of sqrt(d_k)."""
# diagnosis: divided by d_k instead of √d_k
# lesson: no √d_k or dividing by d_k
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    s = Q @ K.T / Q.shape[-1]
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
