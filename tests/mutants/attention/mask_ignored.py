"""Mistake: takes a mask argument and never uses it, so masked keys keep their weight."""
# diagnosis: the mask is ignored
# lesson: masking after the softmax
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:, :n_valid] = True
    return m


def attention(Q, K, V, mask=None):
    d_k = Q.shape[1]
    s = Q @ K.T / np.sqrt(d_k)
    a = np.exp(s - s.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)
    return a @ V, a
