"""Mistake: shifts each row by its own maximum, then divides by the sum of the whole matrix."""
# diagnosis: divided by the sum of the whole matrix
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(K.shape[-1])  # (N_q, N_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum()
    return a @ V, a
