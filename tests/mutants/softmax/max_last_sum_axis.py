"""Mistake: the maximum is taken along the last axis whatever the axis, the sum along the
right one. The weights still sum to 1 along the axis; along another axis than the last,
each entry is shifted by a different amount, so the ratios are wrong."""
# diagnosis: the maximum is taken along the last axis, but the sum along the axis asked for
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
