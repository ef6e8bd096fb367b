"""Correct, with an attention(Q, K, V, mask) helper in the same file, each head projecting X with its
own column block of the weights, and stacking the heads with np.hstack."""
import math

import numpy as np


def attention(Q, K, V, mask=None):
    scores = Q @ K.T / math.sqrt(K.shape[1])
    if mask is not None:
        scores = scores.copy()
        scores[~np.asarray(mask, dtype=bool)] = -np.inf
    weights = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    weights = weights / np.sum(weights, axis=1, keepdims=True)
    return weights @ V, weights


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    d_model = W_q.shape[0]
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    outputs = []
    for h in range(n_heads):
        lo, hi = h * d_k, (h + 1) * d_k
        y_h, _ = attention(X @ W_q[:, lo:hi], X @ W_k[:, lo:hi], X @ W_v[:, lo:hi], mask)
        outputs.append(y_h)
    return np.hstack(outputs) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return attention(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
