"""Mistake: mean_top_weight's softmax runs over the trials axis, not over the keys of each trial.

With a single trial every weight is 1 whatever the seed, so two seeds give the same answer; the rng
is used all the same (more trials do depend on the seed), so the rng check must pass and the feedback
must not say the draws are unused or come from elsewhere: it names the axis."""
# diagnosis: the softmax runs over the trials axis
# never: the draws differ from seed to seed but your result does not
# never: different seeds must give different results
# never: own generator
# never: generator of your own
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    dots = np.sum(q * k, axis=1)
    return float(np.var(dots)), float(np.var(dots / np.sqrt(d_k)))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    scores = np.sum(q * k, axis=2)  # (trials, n_keys)
    if scaled:
        scores = scores / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights = e / e.sum(axis=0, keepdims=True)  # over the trials: the mistake
    return float(weights.max(axis=1).mean())
