"""Mistake: neither the maximum nor the sum keeps the axis (keepdims left out of both)."""
# diagnosis: the maximum and the sum along the axis are taken without keepdims=True
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.max(z, axis=axis))
    return e / np.sum(e, axis=axis)
