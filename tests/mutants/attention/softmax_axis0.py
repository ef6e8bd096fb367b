"""Mistake: takes the softmax over axis=0, so the columns of A sum to 1."""
# diagnosis: the softmax runs over axis=0
# lesson: softmax over the wrong axis or the whole array
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
    e = np.exp(s - s.max(axis=0, keepdims=True))
    a = e / e.sum(axis=0, keepdims=True)
    return a @ V, a
