"""Mistake: subtracts the maximum of the whole array, so a row far below it underflows to 0/0."""
# diagnosis: the maximum of the whole array is subtracted
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - np.max(z))
    return e / e.sum(axis=axis, keepdims=True)
