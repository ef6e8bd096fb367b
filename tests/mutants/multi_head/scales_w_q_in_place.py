"""Mistake: folds the 1/sqrt(d_k) scaling into W_q with /=, changing the caller's W_q."""
# diagnosis: modified W_q in place
# diagnosis: leave the caller's arrays alone
import numpy as np


def _attend(q, k, v, mask=None):
    s = q @ k.T  # the scaling is already in q
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
    W_q /= np.sqrt(d_k)
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = [_attend(q[:, h * d_k:(h + 1) * d_k], k[:, h * d_k:(h + 1) * d_k], v[:, h * d_k:(h + 1) * d_k],
                     mask)[0] for h in range(n_heads)]
    return np.concatenate(heads, axis=1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    W_q /= np.sqrt(W_q.shape[1])
    return _attend(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
