"""Mistakes, two at once: scale_scores divides by d_k instead of √d_k, and head_dim returns int(d_model /
n_heads) without raising ValueError for an uneven split. Written blind, without reading the graders."""
# diagnosis: divided by d_k instead of √d_k
# diagnosis: instead of raising ValueError
# lesson: no √d_k or dividing by d_k
import math
import numpy as np


def scale_scores(raw, d_k):
    return np.asarray(raw, dtype=np.float64) / d_k


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)
    e = np.exp(s - np.max(s))
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    return int(d_model / n_heads)
