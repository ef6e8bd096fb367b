"""Mistake: the causal mask is sliced from a fixed 512 x 512 buffer, so it is right only up to n = 512."""
# diagnosis: none
import numpy as np

_CAUSAL = np.tril(np.ones((512, 512), dtype=bool))


def causal_mask(n):
    return _CAUSAL[:n, :n]


def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    return a @ V, a
