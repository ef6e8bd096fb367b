"""Mistake: the exponentials are held above 1e-8 before they are normalised, so entries that
were -inf (and entries far below the maximum) get a small weight instead of exactly 0."""
# diagnosis: held above a floor
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.maximum(np.exp(z - z.max(axis=axis, keepdims=True)), 1e-8)
    return e / e.sum(axis=axis, keepdims=True)
