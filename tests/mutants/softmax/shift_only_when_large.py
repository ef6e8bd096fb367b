"""Mistake: the max is subtracted only when it is large, to "avoid overflow"; a slice whose
entries are all very negative then underflows to 0 / 0 = nan."""
# diagnosis: underflows to 0 below about -745
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    if np.max(z) > 50:  # shifted only when something could overflow
        z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
