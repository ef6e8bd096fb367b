"""Mistake: treats True in the mask as 'blocked' instead of 'may attend'."""
# diagnosis: True means 'may attend'
# lesson: a padding mask on queries or with the wrong polarity
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = Q @ K.T / np.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
