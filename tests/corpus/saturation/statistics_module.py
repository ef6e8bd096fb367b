"""Right, written with the standard library where it can be: the scores go into a list of Python
floats, statistics.variance (the n - 1 sample variance) gives the spread, statistics.fmean the mean
top weight; each trial's softmax is math.exp over the scores shifted by their maximum. NumPy is only
used through the rng, one (trials, d_k) draw per argument as the lesson shows."""
# source: style the lessons invite (lesson 2 asks for "the sample variance"; statistics.variance is the
#         textbook sample variance)
# license: n/a
# adapted: n/a
import math
import statistics


def dot_variances(d_k, trials, rng):
    q = rng.standard_normal((trials, d_k))
    k = rng.standard_normal((trials, d_k))
    scores = [float(qi @ ki) for qi, ki in zip(q, k)]
    root = math.sqrt(d_k)
    return statistics.variance(scores), statistics.variance([s / root for s in scores])


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, d_k))
    keys = rng.standard_normal((trials, n_keys, d_k))
    divisor = math.sqrt(d_k) if scaled else 1.0
    tops = []
    for t in range(trials):
        scores = [float(x) / divisor for x in keys[t] @ q[t]]
        top = max(scores)
        tops.append(1.0 / math.fsum(math.exp(s - top) for s in scores))
    return statistics.fmean(tops)
