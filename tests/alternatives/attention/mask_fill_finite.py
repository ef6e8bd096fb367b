"""Correct: masked scores are set to -1e9, as most tutorials do ("or a very large negative number",
says the stub): with scores in the thousands, as promised, a masked weight is exactly 0."""
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -1e9)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    return a @ V, a
