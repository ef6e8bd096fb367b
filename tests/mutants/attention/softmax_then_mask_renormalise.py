"""Mistake: softmax first, then zero the masked weights and renormalise each row. The same as
masking first, until a masked score is far above the allowed ones: their weights are then 0 / 0."""
# diagnosis: none
# lesson: masking after the softmax
import numpy as np


def causal_mask(n):
    return np.tril(np.full((n, n), True))


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:, :n_valid] = True
    return m


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(Q, K, V, mask=None):
    att = softmax(Q @ K.T / np.sqrt(K.shape[-1]))
    if mask is not None:
        att = np.where(mask, att, 0.0)
        att = att / att.sum(axis=-1, keepdims=True)
    return att @ V, att
