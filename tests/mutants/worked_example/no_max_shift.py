"""Mistake: exponentiates the scores as they are, so large scores overflow to inf and give NaN."""
# diagnosis: subtract the largest score first
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s)
    return 100 * e / np.sum(e)


def head_dim(d_model, n_heads):
    if d_model % n_heads != 0:
        raise ValueError(f"{n_heads} heads do not split {d_model}")
    return d_model // n_heads
