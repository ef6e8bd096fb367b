"""Correct: q and k come from one draw, einsum for the dot products, variance written out by hand."""
import numpy as np


def dot_variances(d_k, trials, rng):
    q, k = rng.normal(0.0, 1.0, size=(2, trials, d_k))
    s = np.einsum("td,td->t", q, k)
    var = np.mean((s - s.mean()) ** 2)
    return float(var), float(var / d_k)


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    draws = rng.standard_normal((trials, n_keys + 1, d_k))
    q, k = draws[:, 0], draws[:, 1:]
    s = np.einsum("td,tkd->tk", q, k) * (d_k ** -0.5 if scaled else 1.0)
    # the largest weight is exp(0) / sum(exp(s - max)) after shifting by the maximum
    return float(np.mean(1.0 / np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1)))
