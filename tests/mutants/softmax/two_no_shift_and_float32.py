"""Mistakes, two at once: np.exp of the entries as they are (large ones overflow to NaN), and the result is
cast to float32. Written blind, without reading the graders."""
# diagnosis: subtract the maximum
# diagnosis: return float64
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(np.asarray(z, dtype=np.float64))
    return (e / e.sum(axis=axis, keepdims=True)).astype(np.float32)
