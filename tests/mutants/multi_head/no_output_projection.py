"""Mistake: concatenates the heads but never multiplies by the output projection W_o."""
# diagnosis: W_o is left out
# lesson: W_o left out or transposed
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
    d_k = d_model // n_heads
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_k, (h + 1) * d_k)
        heads.append(_attend(X @ W_q[:, cols], X @ W_k[:, cols], X @ W_v[:, cols], mask)[0])
    return np.concatenate(heads, axis=1)


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return _attend(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
