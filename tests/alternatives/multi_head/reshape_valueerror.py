"""Correct, vectorised: the heads come from one reshape to (N, H, d_k), and reshape's own ValueError
is the one an uneven split raises (the contract asks for a ValueError, not for a raise statement)."""
import numpy as np


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = np.shape(X)
    d_k = d_model // n_heads
    q, k, v = ((X @ W).reshape(N, n_heads, d_k) for W in (W_q, W_k, W_v))  # ValueError for an uneven split
    s = np.einsum("ihd,jhd->hij", q, k) / np.sqrt(d_k)  # (H, N, N)
    if mask is not None:
        s = np.where(mask[None], s, -np.inf)
    y = np.einsum("hij,jhd->ihd", _softmax(s), v).reshape(N, d_model)  # heads side by side, head 0 first
    return y @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    s = (X_dec @ W_q) @ (X_enc @ W_k).T / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = _softmax(s)
    return a @ (X_enc @ W_v), a
