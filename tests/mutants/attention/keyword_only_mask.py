"""Mistake: mask is keyword-only (a bare * before it), though the signature lets it be given by position
too: attention(..., mask) as the stub allows raises TypeError."""
# diagnosis: positional argument

import numpy as np


def causal_mask(n: int) -> np.ndarray:
    """(n, n) bool, True where key j <= query i."""
    return np.tril(np.ones((n, n), dtype=bool))  # row i = query, column j = key


def padding_mask(n_valid: int, n: int) -> np.ndarray:
    """(n, n) bool, True where key j < n_valid (every query sees the real keys only)."""
    keys = np.arange(n) < n_valid  # (n,) over keys
    return np.broadcast_to(keys, (n, n)).copy()  # same row for every query


def attention(Q, K, V, *, mask=None):
    """Scaled dot-product attention; returns (Y, A)."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (Q, K, V))
    d_k = q.shape[-1]
    att = q @ k.T / np.sqrt(d_k)  # (N_q, N_k) scores
    if mask is not None:
        att = np.where(mask, att, -np.inf)  # masked keys: score -inf -> weight exactly 0
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)  # (N_q, N_k), each row sums to 1
    y = att @ v  # (N_q, d_v)
    return y, att
