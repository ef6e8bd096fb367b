"""Mistake: splits heads with reshape(N, d_k, n_heads), so head h gets columns h::n_heads (and puts them back there)."""
# diagnosis: interleaved columns
# never: each copy should give the single head's output
# lesson: heads interleaved or concatenated in the wrong order
import numpy as np


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    q, k, v = (np.moveaxis((X @ W).reshape(N, d_k, n_heads), 2, 0) for W in (W_q, W_k, W_v))  # (H, N, d_k)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    y = np.moveaxis(a @ v, 0, 2).reshape(N, d_model)
    return y @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    s = (X_dec @ W_q) @ (X_enc @ W_k).T / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return a @ (X_enc @ W_v), a
