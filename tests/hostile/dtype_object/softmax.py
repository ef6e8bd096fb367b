import numpy as np


def softmax(z, axis=-1):
    out = np.empty(np.shape(z), dtype=object)
    out[...] = None
    return out
