"""Mistakes, two at once: the scores are divided by √d_v instead of √d_k, and np.exp is taken of them
without subtracting each row's maximum, so large scores overflow. Both must be named."""
# diagnosis: divided by √d_v
# diagnosis: there is more than one mistake
# diagnosis: subtract each row's maximum score
# lesson: no √d_k or dividing by d_k
import numpy as np
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))
def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()
def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(V.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s)
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
