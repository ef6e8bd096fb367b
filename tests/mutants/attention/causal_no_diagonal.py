"""Mistake: builds the causal mask with k=-1, so a token cannot attend to itself."""
# diagnosis: the diagonal is missing
# lesson: an off-by-one causal mask
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = Q @ K.T / np.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
