"""softmax: Cleo's answers."""
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
