"""Mistake: averages all the softmax weights instead of the largest one of each trial."""
# diagnosis: exactly 1/n_keys
# diagnosis: Take the largest weight of each trial
import numpy as np


def dot_variances(d_k, trials, rng):
    s = np.sum(rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k)), axis=1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = np.sum(q * k, axis=-1)
    if scaled:
        s = s / np.sqrt(d_k)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return float(w.mean())
