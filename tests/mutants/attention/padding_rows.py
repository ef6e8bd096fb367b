"""Mistake: the padding mask switches off padded queries (rows) instead of padded keys (columns)."""
# diagnosis: the padded queries (rows) are switched off
# lesson: a padding mask on queries or with the wrong polarity
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:n_valid, :] = True
    return m


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = Q @ K.T / np.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
