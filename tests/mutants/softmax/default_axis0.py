"""Mistake: the default axis is 0 (the first axis), not -1 as the contract says."""
# diagnosis: without an axis argument softmax must work along the last axis
import numpy as np


def softmax(z, axis=0):
    z = np.asarray(z, dtype=np.float64)
    shifted = z - z.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)
