"""Mistake: scales Q in place (Q /= sqrt(d_k)), changing the caller's array."""
# diagnosis: modified Q in place
# diagnosis: work on new arrays
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    Q /= np.sqrt(Q.shape[-1])
    s = Q @ K.T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
