"""Mistake: exponentiates the scores but never divides by the row sum."""
# diagnosis: without dividing each row by its sum
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = Q @ K.T / np.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s)
    return a @ V, a
