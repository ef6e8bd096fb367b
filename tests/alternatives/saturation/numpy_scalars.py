"""Correct: NumPy scalars (np.float32) returned as the floats: kit's one rule for numbers counts every
NumPy real scalar as a float (docs/contract.md), and the values are right."""
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=-1)
    return np.float32(np.var(s)), np.float32(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    att = (q @ k.transpose(0, 2, 1))[:, 0, :]
    if scaled:
        att = att / np.sqrt(d_k)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    return np.float32(att.max(axis=-1).mean())
