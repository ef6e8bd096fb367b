import numpy as np


def softmax(z, axis=-1):
    return np.ones(np.size(z) + 1) / (np.size(z) + 1)
