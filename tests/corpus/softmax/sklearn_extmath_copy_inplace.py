"""scikit-learn extmath style: X = np.copy(X) (copy=True), then in-place X -= max_prob, np.exp(X, X),
X /= sum_prob, with the row max reshaped to a column.
"""
# source: scikit-learn/scikit-learn:sklearn/utils/extmath.py (softmax)
# license: BSD-3-Clause
# adapted: sklearn works on 2D arrays along axis=1 with .reshape((-1, 1)); for any rank and axis the
#   reduced max/sum are put back with np.expand_dims(..., axis) instead; copy keeps its default True
#   (so the caller's array is never modified); the signature gains axis=-1.
import numpy as np


def softmax(X, axis=-1, copy=True):
    """
    Calculate the softmax function.

    The softmax function is calculated by
    np.exp(X) / np.sum(np.exp(X), axis=axis)

    This will cause overflow when large values are exponentiated.
    Hence the largest value in each row is subtracted from each data
    point to prevent this.
    """
    if copy:
        X = np.copy(X)
    max_prob = np.expand_dims(np.max(X, axis=axis), axis)
    X -= max_prob
    np.exp(X, X)
    sum_prob = np.expand_dims(np.sum(X, axis=axis), axis)
    X /= sum_prob
    return X
