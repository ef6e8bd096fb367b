"""Mistake: scale_scores rounds the scaled scores to 3 decimals, like the lesson's table, so small scores lose
most of their digits. Written blind, without reading the graders."""
# diagnosis: none
import math
import numpy as np


def scale_scores(raw, d_k):
    return np.round(np.asarray(raw, dtype=np.float64) / np.sqrt(d_k), 3)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    e = np.exp(s - np.max(s))
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    return d_model // n_heads
