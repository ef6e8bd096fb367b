"""Mistake: splits the heads right, but merges them with a reshape of (n_heads, N, d_k) straight
to (N, d_model), without moving the head axis back: each row mixes tokens."""
# diagnosis: reshaped straight to (N, d_model)
# lesson: heads interleaved or concatenated in the wrong order
import numpy as np


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads

    def split(m):  # (N, d_model) -> (n_heads, N, d_k): right
        return m.reshape(N, n_heads, d_k).transpose(1, 0, 2)

    q, k, v = split(X @ W_q), split(X @ W_k), split(X @ W_v)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)  # (H, N, N)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    y = a @ v  # (H, N, d_k)
    return y.reshape(N, d_model) @ W_o  # the head axis is not moved back first


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    s = (X_dec @ W_q) @ (X_enc @ W_k).T / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return a @ (X_enc @ W_v), a
