"""Mistakes, two at once: the causal mask is np.triu (queries see the future, not the past), and the scores are
never divided by √d_k. Written blind, without reading the graders."""
# diagnosis: np.triu
# diagnosis: not divided by √d_k
# lesson: no √d_k or dividing by d_k
import numpy as np


def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:, :n_valid] = True
    return m


def attention(Q, K, V, mask=None):
    S = Q @ K.T
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    S = S - S.max(axis=1, keepdims=True)
    A = np.exp(S)
    A = A / A.sum(axis=1, keepdims=True)
    return A @ V, A
