"""Mistake: powers of 2 instead of powers of e. The weights still sum to 1, lie in [0, 1] and
ignore a shift, so only their ratios give it away."""
# diagnosis: powers of 2, not of e
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    p = 2.0 ** (z - z.max(axis=axis, keepdims=True))
    return p / p.sum(axis=axis, keepdims=True)
