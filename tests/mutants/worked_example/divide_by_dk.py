"""Mistake: divides the scores by d_k instead of sqrt(d_k)."""
# diagnosis: divided by d_k instead of √d_k
# lesson: no √d_k or dividing by d_k
import numpy as np


def scale_scores(raw, d_k):
    return raw / d_k


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("uneven split")
    return d_model // n_heads
