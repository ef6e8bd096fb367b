"""Correct: plain loops that set a masked score to -1e9, with math.exp after the max shift."""
import math

import numpy as np


def causal_mask(n):
    m = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1):
            m[i, j] = True
    return m


def padding_mask(n_valid, n):
    m = np.ones((n, n), dtype=bool)
    m[:, n_valid:] = False
    return m


def attention(Q, K, V, mask=None):
    n_q, d_k = Q.shape
    n_k, d_v = V.shape
    Y = np.zeros((n_q, d_v))
    A = np.zeros((n_q, n_k))
    for i in range(n_q):
        scores = []
        for j in range(n_k):
            s = sum(Q[i, t] * K[j, t] for t in range(d_k)) / math.sqrt(d_k)
            if mask is not None and not mask[i, j]:
                s = -1e9
            scores.append(s)
        top = max(scores)
        w = [math.exp(s - top) for s in scores]
        total = sum(w)
        for j in range(n_k):
            A[i, j] = w[j] / total
            Y[i] += A[i, j] * V[j]
    return Y, A
