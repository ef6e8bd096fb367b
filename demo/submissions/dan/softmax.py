import numpy as np


def softmax(x, axis=-1):
    ex = np.exp(x)
    return ex / ex.sum(axis=axis, keepdims=True)
