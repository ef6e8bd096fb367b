"""Mistake: softmax_percent never scales the scores, whatever the scaled flag says."""
# diagnosis: the scores are never scaled
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    e = np.exp(raw - raw.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("uneven split")
    return d_model // n_heads
