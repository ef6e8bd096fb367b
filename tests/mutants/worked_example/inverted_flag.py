"""Mistake: the scaled flag is inverted, so scaled=True gives the raw-score softmax."""
# diagnosis: the scaled flag is inverted
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = raw if scaled else scale_scores(raw, d_k)
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("uneven split")
    return d_model // n_heads
