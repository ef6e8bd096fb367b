"""Correct, via the log-sum-exp identity: softmax(z) = exp(z - logsumexp(z))."""
import numpy as np


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    z = np.asarray(z, dtype=np.float64)
    m = z.max(axis=axis, keepdims=True)
    lse = m + np.log(np.exp(z - m).sum(axis=axis, keepdims=True))
    return np.exp(z - lse)
