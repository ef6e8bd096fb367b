"""Mistake: always normalises along the last axis, whatever axis is asked for."""
# diagnosis: always runs along the last axis
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
