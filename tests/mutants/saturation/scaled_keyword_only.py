"""Mistake: mean_top_weight makes scaled keyword-only (a bare * before it), so a call that writes the flag
by position, mean_top_weight(64, 10, 1000, rng, False), raises TypeError; the stub's signature lets every
argument be written by position or by name. Every value is right."""
# diagnosis: scaled is the fifth
import numpy as np


def dot_variances(d_k, trials, rng):
    s = np.sum(rng.standard_normal((trials, d_k)) * rng.standard_normal((trials, d_k)), axis=1)
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, *, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = (q @ k.transpose(0, 2, 1))[:, 0, :]
    if scaled:
        s = s / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return float((e / e.sum(axis=1, keepdims=True)).max(axis=1).mean())
