# The same liar, disguised as numpy.ndarray by its module and name. The grader only
# ever sees its raw float64 bytes, which are honest (and wrong).
import numpy as np


class ndarray(np.ndarray):
    __module__ = "numpy"
    __qualname__ = "ndarray"

    def __eq__(self, other):
        return True

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return True

    def __array_function__(self, func, types, args, kwargs):
        return True


def softmax(z, axis=-1):
    return np.ndarray.view(np.full(np.shape(z), 7.0), ndarray)
