"""Mistake: "cleans" infinities by replacing them with 0, so masked entries get weight."""
# diagnosis: the -inf entries are replaced by 0
import numpy as np


def softmax(z, axis=-1):
    z = np.where(np.isinf(z), 0.0, z)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
