"""Mistake: dot_variances draws the queries and keys a second time for the scaled variance, so the
second value is the variance of other scores divided by √d_k, not that of the same scores. Each value
alone is about right (d_k and 1), only their ratio gives it away: it is off d_k by sampling error."""
# diagnosis: should be the sample variance of the same
import numpy as np


def dot_variances(d_k, trials, rng):
    s = np.sum(rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k)), axis=1)
    again = np.sum(rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k)), axis=1)
    return float(np.var(s)), float(np.var(again / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q @ k.transpose(0, 2, 1))[:, 0, :]
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return float((e / e.sum(axis=1, keepdims=True)).max(axis=1).mean())
