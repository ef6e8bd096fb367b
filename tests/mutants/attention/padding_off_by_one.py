"""Mistake: padding_mask keeps key j = n_valid, the first padded position (<= instead of <)."""
# diagnosis: key j = n_valid is already padding
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    keys = np.arange(n) <= n_valid
    return np.broadcast_to(keys, (n, n)).copy()


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
