"""Mistake: the axis is written into the code as 1 (the columns of a matrix), so the axis
argument is ignored; on a matrix that happens to be the last axis."""
# diagnosis: always runs along axis 1
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
