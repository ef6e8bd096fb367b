"""Correct: never tests whether n_heads divides d_model; the heads then fall short of W_o's rows and
the last matmul raises the ValueError the contract asks for (the feedback adds a tip, at no cost)."""
import numpy as np


def _attend(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    return a @ v, a


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    d_k = X.shape[1] // n_heads
    q, k, v = X @ W_q, X @ W_k, X @ W_v
    heads = [_attend(q[:, h * d_k:(h + 1) * d_k], k[:, h * d_k:(h + 1) * d_k], v[:, h * d_k:(h + 1) * d_k],
                     mask)[0] for h in range(n_heads)]
    return np.concatenate(heads, axis=1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    return _attend(X_dec @ W_q, X_enc @ W_k, X_enc @ W_v, mask)
