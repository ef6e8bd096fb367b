"""Mistake: "makes sure no row is empty" by setting the mask's diagonal True in the caller's array."""
# diagnosis: modified mask in place
# diagnosis: work on new arrays
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(Q.shape[1])
    if mask is not None:
        if mask.shape[0] == mask.shape[1]:
            np.fill_diagonal(mask, True)  # writes into the caller's mask
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
