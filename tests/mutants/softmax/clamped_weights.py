"""Mistake: the weights are clipped to [1e-12, 1] "to avoid log(0) later", so entries that
were -inf get a small weight instead of exactly 0."""
# diagnosis: held above a floor
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return np.clip(e / e.sum(axis=axis, keepdims=True), 1e-12, 1.0)
