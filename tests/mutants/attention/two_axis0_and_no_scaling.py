"""Mistakes, two at once: the softmax runs down each column (axis=0) and the scores are never
divided by √d_k. Neither alone fits the answers; the pair does, and is named."""
# diagnosis: there are two mistakes
# diagnosis: axis=0
# diagnosis: not divided by √d_k
# lesson: softmax over the wrong axis or the whole array
import numpy as np
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))
def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()
def attention(Q, K, V, mask=None):
    s = Q @ K.T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=0, keepdims=True))
    a = e / e.sum(axis=0, keepdims=True)
    return a @ V, a
