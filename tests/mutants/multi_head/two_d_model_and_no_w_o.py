"""Mistakes, two at once: every head divides its scores by √d_model instead of √d_k, and the concatenated heads
are never multiplied by W_o. Written blind, without reading the graders."""
# diagnosis: dividing by √d_model
# diagnosis: W_o makes no difference
# lesson: √d_model in place of √d_k
# lesson: W_o left out or transposed
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
        S = Q[:, c] @ K[:, c].T / np.sqrt(d_model)
        if mask is not None:
            S = np.where(mask, S, -np.inf)
        outs.append(_softmax(S) @ V[:, c])
    return np.concatenate(outs, axis=1)

def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    Q = X_dec @ W_q
    K = X_enc @ W_k
    V = X_enc @ W_v
    S = Q @ K.T / np.sqrt(W_q.shape[1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    A = _softmax(S)
    return A @ V, A
