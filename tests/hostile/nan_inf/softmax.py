import numpy as np


def softmax(z, axis=-1):
    out = np.full(np.shape(z), np.nan)
    if out.size % 2 == 0:
        out[...] = np.inf
    return out
