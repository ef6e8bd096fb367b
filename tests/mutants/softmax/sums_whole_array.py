"""Mistake: shifts along the right axis but divides by the sum of the whole array."""
# diagnosis: but the sum over the whole array
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / e.sum()
