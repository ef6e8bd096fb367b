"""Mistake: an off-by-one causal mask, np.tril(..., k=1), that lets each token see the next one."""
# diagnosis: row i also sees key i + 1
# lesson: an off-by-one causal mask
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool), k=1)


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
