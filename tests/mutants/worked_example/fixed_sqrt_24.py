"""Mistake: softmax_percent divides by the lesson's √24 whatever d_k is given (scale_scores itself is right),
so only the worked example's d_k = 24 comes out right. Written blind, without reading the graders."""
# diagnosis: none
import math
import numpy as np


def scale_scores(raw, d_k):
    return np.asarray(raw, dtype=np.float64) / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = np.asarray(raw, dtype=np.float64)
    if scaled:
        s = s / math.sqrt(24)
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    return d_model // n_heads
