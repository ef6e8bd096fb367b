"""Mistake: mask is keyword-only (a bare * before it), though the signature lets it be given by position
too: cross_attention(..., mask) as the stub allows raises TypeError."""
# diagnosis: positional argument

import numpy as np


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    X = np.asarray(X, dtype=np.float64)
    N, d_model = X.shape
    if n_heads < 1 or d_model % n_heads:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    d_k = d_model // n_heads
    q, k, v = X @ W_q, X @ W_k, X @ W_v  # (N, d_model) each
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_k, (h + 1) * d_k)  # head h: a contiguous block of columns
        att = q[:, cols] @ k[:, cols].T / np.sqrt(d_k)  # (N, N)
        if mask is not None:
            att = np.where(mask, att, -np.inf)  # masked scores -> -inf -> weight exactly 0
        att = np.exp(att - att.max(axis=-1, keepdims=True))
        att = att / att.sum(axis=-1, keepdims=True)  # each row sums to 1
        heads.append(att @ v[:, cols])  # (N, d_k)
    y = np.concatenate(heads, axis=1)  # (N, n_heads * d_k) = (N, d_model)
    return y @ W_o  # (N, d_model)


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, *, mask=None):
    q = np.asarray(X_dec, dtype=np.float64) @ W_q  # (N_q, d_k): queries from the decoder
    k = np.asarray(X_enc, dtype=np.float64) @ W_k  # (N_k, d_k): keys from the encoder
    v = np.asarray(X_enc, dtype=np.float64) @ W_v  # (N_k, d_v): values from the encoder
    att = q @ k.T / np.sqrt(q.shape[-1])  # (N_q, N_k)
    if mask is not None:
        att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    return att @ v, att  # Y (N_q, d_v), A (N_q, N_k)
