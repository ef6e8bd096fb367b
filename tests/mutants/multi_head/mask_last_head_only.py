"""Mistake: the mask is applied in the last head only; the other heads see every token.

Seen in an independent try-out, where the feedback said that a head divides by √d_k (it does)
and that the result was the same without the mask (true only of identical tokens)."""
# diagnosis: none
# never: however many heads there are
# never: the same without the mask
import numpy as np


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    X = np.asarray(X, dtype=np.float64)
    n, d_model = X.shape
    if n_heads < 1 or d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = []
    for h in range(n_heads):
        cols = slice(h * d_k, (h + 1) * d_k)
        att = q[:, cols] @ k[:, cols].T / np.sqrt(d_k)
        if mask is not None and h == n_heads - 1:
            att = np.where(mask, att, -np.inf)
        att = np.exp(att - att.max(axis=-1, keepdims=True))
        heads.append(att / att.sum(axis=-1, keepdims=True) @ v[:, cols])
    return np.concatenate(heads, axis=1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    q = np.asarray(X_dec, dtype=np.float64) @ W_q
    k = np.asarray(X_enc, dtype=np.float64) @ W_k
    v = np.asarray(X_enc, dtype=np.float64) @ W_v
    att = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    return att @ v, att
