"""Mistake: head h takes every n_heads-th column (h::n_heads) instead of a contiguous block."""
# diagnosis: interleaved columns
# never: each copy should give the single head's output
# lesson: heads interleaved or concatenated in the wrong order
import numpy as np


def _attend(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return a @ v, a


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = [_attend(q[:, h::n_heads], k[:, h::n_heads], v[:, h::n_heads], mask)[0] for h in range(n_heads)]
    return np.concatenate(heads, axis=1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return _attend(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
