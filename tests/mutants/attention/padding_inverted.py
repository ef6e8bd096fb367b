"""Mistake: padding_mask marks the padded keys True, as if True meant 'blocked'."""
# diagnosis: True marks the padding
# lesson: a padding mask on queries or with the wrong polarity
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    is_pad = np.arange(n) >= n_valid
    return np.tile(is_pad, (n, 1))


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
