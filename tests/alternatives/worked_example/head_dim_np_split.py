"""Correct: head_dim leaves the uneven split to np.split, whose ValueError is the one the contract
asks for (the feedback adds a tip to test first, at no cost)."""
import numpy as np


def scale_scores(raw, d_k):
    return raw / np.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    heads = np.split(np.arange(d_model), n_heads)  # raises ValueError for an uneven split
    return len(heads[0])
