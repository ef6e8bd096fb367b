"""Mistakes, two at once: softmax_percent returns fractions that sum to 1, not percent, and head_dim uses true
division, so it returns a float. Written blind, without reading the graders."""
# diagnosis: multiply by 100
# diagnosis: use integer division (//)
import math
import numpy as np


def scale_scores(raw, d_k):
    return np.asarray(raw, dtype=np.float64) / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    e = np.exp(s - s.max())
    return e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("uneven split")
    return d_model / n_heads
