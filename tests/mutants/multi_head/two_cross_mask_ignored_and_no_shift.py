"""Mistakes, two at once: cross_attention ignores the mask and takes np.exp of the scores without subtracting
each row's maximum, so large scores overflow to NaN. Written blind, without reading the graders."""
# diagnosis: the mask is ignored
# diagnosis: there is more than one mistake
# diagnosis: subtract each row's maximum before np.exp
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
    E = np.exp(Q @ K.T / np.sqrt(W_q.shape[1]))
    A = E / E.sum(axis=1, keepdims=True)
    return A @ V, A
