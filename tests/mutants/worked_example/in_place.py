"""Mistake: scale_scores divides raw in place, changing the caller's array."""
# diagnosis: modified raw in place
# diagnosis: work on a copy
import numpy as np


def scale_scores(raw, d_k):
    raw /= np.sqrt(d_k)
    return raw


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("uneven split")
    return d_model // n_heads
