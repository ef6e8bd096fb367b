"""Mistake: "a decoder is causal", so with no mask given it applies a causal mask anyway."""
# diagnosis: with mask=None (the default) nothing is masked
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    if mask is None and len(Q) == len(K):
        mask = causal_mask(len(Q))
    s = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    return a @ V, a
