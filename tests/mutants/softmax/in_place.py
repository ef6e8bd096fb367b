"""Mistake: subtracts the maximum in place, changing the caller's array."""
# diagnosis: modified z in place
# diagnosis: work on a copy
import numpy as np


def softmax(z, axis=-1):
    z -= z.max(axis=axis, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z.copy()
