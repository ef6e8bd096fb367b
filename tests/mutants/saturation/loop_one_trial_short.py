"""Mistake: mean_top_weight loops over range(1, trials), one trial short, but still divides by trials, so its
mean is (trials - 1)/trials of the right one (0 for a single trial). Written blind, without reading the
graders."""
# diagnosis: none
import math
import numpy as np


def dot_variances(d_k, trials, rng):
    scores = []
    for _ in range(trials):
        q = rng.standard_normal(d_k)
        k = rng.standard_normal(d_k)
        scores.append(float(q @ k))
    s = np.array(scores)
    return float(np.var(s)), float(np.var(s / math.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    total = 0.0
    for t in range(1, trials):
        q = rng.standard_normal(d_k)
        K = rng.standard_normal((n_keys, d_k))
        s = K @ q
        if scaled:
            s = s / math.sqrt(d_k)
        e = np.exp(s - s.max())
        total += (e / e.sum()).max()
    return total / trials
