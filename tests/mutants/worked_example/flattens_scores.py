"""Mistake: scale_scores flattens the scores (np.ravel, to loop over them), so a matrix of scores
comes back as one long row; one query's scores, the lesson's case, are right."""
# diagnosis: should have shape (2, 3)
# diagnosis: must keep its shape too
import math

import numpy as np


def scale_scores(raw, d_k):
    flat = np.ravel(np.asarray(raw, dtype=np.float64))
    return np.array([s / math.sqrt(d_k) for s in flat])


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return d_model // n_heads
