"""Mistake: mean_top_weight averages the weights over the trials first and then takes the largest average (the
max of the mean, not the mean of the max), which is close to 1/n_keys. Written blind, without reading the
graders."""
# diagnosis: none
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    s = np.sum(q * k, axis=1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q * k).sum(-1)
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    return float(p.mean(axis=0).max())
