"""Mistake: cross_attention takes the queries from the encoder and the keys and values from the decoder."""
# diagnosis: the two sides are swapped
# lesson: keys or values from the wrong side
import numpy as np


def _attend(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return a @ v, a


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = X.shape
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_k = d_model // n_heads
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = [_attend(q[:, h * d_k:(h + 1) * d_k], k[:, h * d_k:(h + 1) * d_k], v[:, h * d_k:(h + 1) * d_k],
                     mask)[0] for h in range(n_heads)]
    return np.concatenate(heads, axis=1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return _attend(X_enc @ W_q, X_dec @ W_k, X_dec @ W_v, None if mask is None else mask.T)
