"""saturation: Ada's answers."""
import math

import numpy as np


def dot_variances(d_k, trials, rng):
    scores = []
    for _ in range(trials):
        q = rng.standard_normal(d_k)
        k = rng.standard_normal(d_k)
        scores.append(float(q @ k))
    scores = np.array(scores)
    return float(scores.var(ddof=1)), float((scores / math.sqrt(d_k)).var(ddof=1))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    total = 0.0
    for _ in range(trials):
        q = rng.standard_normal(d_k)
        keys = rng.standard_normal((n_keys, d_k))
        s = keys @ q
        if scaled:
            s = s / math.sqrt(d_k)
        m = max(s)
        w = [math.exp(x - m) for x in s]
        total += max(w) / sum(w)
    return total / trials
