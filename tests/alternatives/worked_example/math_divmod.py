"""Correct: math.sqrt, the largest score subtracted with max(), divmod for head_dim."""
import math

import numpy as np


def scale_scores(raw, d_k):
    return np.array([x / math.sqrt(d_k) for x in raw], dtype=float)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.array(raw, dtype=float)
    e = np.exp(s - max(s))
    return e / e.sum() * 100


def head_dim(d_model, n_heads):
    size, rest = divmod(d_model, n_heads)
    if rest:
        raise ValueError("the heads must split d_model evenly")
    return size
