"""Mistake: head_dim checks the split with assert, so an uneven split raises AssertionError, not ValueError."""
# diagnosis: raised AssertionError
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    assert d_model % n_heads == 0, "n_heads must divide d_model"
    return d_model // n_heads
