"""Mistake: head_dim never raises; it silently rounds down when the split is uneven."""
# diagnosis: instead of raising ValueError
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    return d_model // n_heads
