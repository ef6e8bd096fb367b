"""Mistake: subtracts the minimum along the axis instead of the maximum, so large entries still overflow and a
-inf entry gives NaN. Written blind, without reading the graders."""
# diagnosis: none
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.min(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
