"""Mistake: reshapes (N, d_model) straight to (n_heads, N, d_k), which splits the tokens, not the columns."""
# diagnosis: splits the rows (tokens) between heads
# never: each copy should give the single head's output
import numpy as np


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    q = (X @ W_q).reshape(n_heads, N, d_k)
    k = (X @ W_k).reshape(n_heads, N, d_k)
    v = (X @ W_v).reshape(n_heads, N, d_k)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)  # (H, N, N)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return (a @ v).reshape(N, d_model) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    s = (X_dec @ W_q) @ (X_enc @ W_k).T / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return a @ (X_enc @ W_v), a
