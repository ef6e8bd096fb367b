"""Mistake: swaps the -inf entries for a large negative number in the caller's array itself."""
# diagnosis: modified z in place
# diagnosis: work on a copy
import numpy as np


def softmax(z, axis=-1):
    z[np.isneginf(z)] = -1e30  # "to be safe": but this writes into the caller's array
    m = z.max(axis=axis, keepdims=True)
    e = np.exp(z - m)
    return e / e.sum(axis=axis, keepdims=True)
