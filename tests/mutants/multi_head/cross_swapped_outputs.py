"""Mistake: cross_attention returns (A, Y) instead of (Y, A). Written blind, without reading the graders."""
# diagnosis: return (Y, A), the output first
import numpy as np


def _softmax(S):
    S = S - S.max(axis=-1, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=-1, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    outs = []
    for h in range(n_heads):
        c = slice(h * d_k, (h + 1) * d_k)
        S = Q[:, c] @ K[:, c].T / np.sqrt(d_k)
        if mask is not None:
            S = np.where(mask, S, -np.inf)
        outs.append(_softmax(S) @ V[:, c])
    return np.concatenate(outs, axis=1) @ W_o

def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    Q = X_dec @ W_q
    K = X_enc @ W_k
    V = X_enc @ W_v
    A = _softmax(np.where(mask, Q @ K.T, -np.inf) / np.sqrt(Q.shape[1]) if mask is not None else Q @ K.T / np.sqrt(Q.shape[1]))
    return A, A @ V
