"""Mistake: zeroes the masked weights after the softmax without renormalising."""
# diagnosis: set to 0 after the softmax, without renormalising
# lesson: masking after the softmax
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = Q @ K.T / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        a = a * mask
    return a @ V, a
