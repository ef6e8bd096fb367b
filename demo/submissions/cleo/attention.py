import numpy as np


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool)


def padding_mask(n_valid, n):
    m = np.zeros((n, n), dtype=bool)
    m[:, :n_valid] = True
    return m
