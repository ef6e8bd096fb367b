"""Two mistakes: np.exp of the entries as they are (overflow), and the sum always along the
last axis. No single known mistake matches, but the overflow is still named: the same call
shifted by each slice's maximum gives a finite result."""
# diagnosis: np.exp overflows to inf beyond about 709, or underflows
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
