"""Correct: the mask adds a -1e9 bias to the scores, as many codebases do. The stub promises scores in
the thousands, so a masked score is a billion below every allowed one and its weight is exactly 0."""
import numpy as np


def causal_mask(n):
    return ~np.triu(np.ones((n, n), dtype=bool), k=1)


def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    s = (Q / np.sqrt(d_k)) @ K.T
    if mask is not None:
        s = s + np.where(mask, 0.0, -1e9)
    m = s.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(s - m).sum(axis=-1, keepdims=True))
    A = np.exp(s - lse)
    return A @ V, A
