"""Correct: multiplies by d_k ** -0.5, softmax via log-sum-exp, head_dim checked by multiplying back."""
import numpy as np


def scale_scores(raw, d_k):
    return raw * d_k ** -0.5


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    m = np.max(s)
    log_z = m + np.log(np.sum(np.exp(s - m)))
    return 100.0 * np.exp(s - log_z)


class HeadSizeError(ValueError):
    pass


def head_dim(d_model, n_heads):
    size = int(d_model / n_heads)
    if size * n_heads != d_model:
        raise HeadSizeError(f"{n_heads} heads do not divide d_model = {d_model}")
    return size
