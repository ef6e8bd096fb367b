"""Log-softmax style: scores - max, minus log(sum(exp(...))), and softmax as the exp of the log-softmax
(the logsumexp formulation).
"""
# source: lkl2050/pandas_practice_code:deep_learning/Implementation of Log Softmax Function.ipynb
# license: unknown
# adapted: the notebook's log_softmax works on a 1-D array (np.max / np.sum over everything); here max and
#   sum are taken along `axis` with keepdims; softmax(z, axis) = np.exp(log_softmax(z, axis)) is added.
import numpy as np


def log_softmax(scores, axis=-1) -> np.ndarray:
    # Subtract the maximum value for numerical stability
    scores = scores - np.max(scores, axis=axis, keepdims=True)
    return scores - np.log(np.sum(np.exp(scores), axis=axis, keepdims=True))


def softmax(z, axis=-1):
    return np.exp(log_softmax(z, axis=axis))
