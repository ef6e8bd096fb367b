"""Mistake: shifts along the right axis but always sums along the last one."""
# diagnosis: but the sum always along the last one
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
