"""Mistakes, two at once: True in the mask is taken as 'blocked' (np.where(mask, -inf, S)), and np.exp is taken
of the scores without subtracting each row's maximum, so a fully allowed row becomes all -inf (NaN) and
large scores overflow. Written blind, without reading the graders."""
# diagnosis: True means 'may attend'
# diagnosis: there is more than one mistake
# diagnosis: subtract each row's maximum score
# lesson: a padding mask on queries or with the wrong polarity
import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:, :n_valid] = True
    return m


def attention(Q, K, V, mask=None):
    S = Q @ K.T / np.sqrt(Q.shape[1])
    if mask is not None:
        S = np.where(mask, -np.inf, S)
    A = np.exp(S)
    A = A / A.sum(axis=1, keepdims=True)
    return A @ V, A
