"""scipy.special.softmax style: x_max = np.amax(x, axis=axis, keepdims=True); exp of the shifted array
divided by its keepdims sum.
"""
# source: scipy/scipy:scipy/special/_logsumexp.py (softmax)
# license: BSD-3-Clause
# adapted: signature softmax(z, axis=-1) instead of softmax(x, axis=None) (scipy's default normalises over
#   the whole array); scipy's private _asarray_validated(x, check_finite=False) replaced by np.asarray.
import numpy as np


def softmax(z, axis=-1):
    x = np.asarray(z)
    x_max = np.amax(x, axis=axis, keepdims=True)
    exp_x_shifted = np.exp(x - x_max)
    return exp_x_shifted / np.sum(exp_x_shifted, axis=axis, keepdims=True)
