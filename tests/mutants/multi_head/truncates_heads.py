"""Mistake: no ValueError; d_k = d_model // n_heads silently drops the leftover columns."""
# diagnosis: instead of raising ValueError
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
    d_k = max(d_model // n_heads, 1)
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = [_attend(q[:, h * d_k:(h + 1) * d_k], k[:, h * d_k:(h + 1) * d_k], v[:, h * d_k:(h + 1) * d_k],
                     mask)[0] for h in range(n_heads)]
    y = np.concatenate(heads, axis=1)
    return y @ W_o[:y.shape[1]]


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return _attend(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
