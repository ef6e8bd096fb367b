"""Mistake: scaled is keyword-only (``*, scaled=True``), so softmax_percent(raw, d_k, False), which the
stub allows, raises TypeError."""
# diagnosis: takes 2 positional arguments but 3 were given
import numpy as np


def scale_scores(raw, d_k):
    return np.asarray(raw, dtype=np.float64) / np.sqrt(d_k)


def softmax_percent(raw, d_k, *, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return d_model // n_heads
