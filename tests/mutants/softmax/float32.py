"""Mistake: computes in float32 to "save memory", losing precision and the dtype."""
# diagnosis: return float64
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float32)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
