"""Mistake: the sum drops the axis (no keepdims=True), so it is broadcast against the wrong
axis: right along axis 0 of a matrix, wrong or a broadcast error along the last one."""
# diagnosis: the sum along the axis is taken without keepdims=True
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis)
