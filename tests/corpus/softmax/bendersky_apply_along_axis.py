"""Eli Bendersky's stablesoftmax: a 1-D function (shiftx = x - np.max(x)), applied to every 1-D slice
with np.apply_along_axis.
"""
# source: https://eli.thegreenplace.net/2016/the-softmax-function-and-its-derivative/ (code header: "Experiments
#   with softmax and its numerical stability ... This code is in the public domain"; copied verbatim in e.g.
#   nik31096/lstm_keras:assignment3.py)
# license: public domain
# adapted: stablesoftmax is for one vector; the exercise takes any shape and axis, so softmax applies it
#   along `axis` with np.apply_along_axis (a common way people lift 1-D code).
import numpy as np


def stablesoftmax(x):
    """Compute the softmax of vector x in a numerically stable way."""
    shiftx = x - np.max(x)
    exps = np.exp(shiftx)
    return exps / np.sum(exps)


def softmax(z, axis=-1):
    return np.apply_along_axis(stablesoftmax, axis, z)
