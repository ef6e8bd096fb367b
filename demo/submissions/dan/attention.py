"""attention (Dan)"""
import numpy as np


def attention(q, k, v, mask=None):
    scores = q @ k.T
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w


def causal_mask(size):
    return np.tril(np.ones((size, size), dtype=bool))


def padding_mask(valid, size):
    return np.tile(np.arange(size) < valid, (size, 1))
