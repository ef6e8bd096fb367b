"""Mistake: axis is keyword-only (a bare * before it), though the signature lets it be given by position
too: softmax(..., axis) as the stub allows raises TypeError."""
# diagnosis: positional argument

import numpy as np


def softmax(z: np.ndarray, *, axis: int = -1) -> np.ndarray:
    """Softmax of ``z`` along ``axis``; same shape as ``z``, float64."""
    z = np.asarray(z, dtype=np.float64)
    m = np.max(z, axis=axis, keepdims=True)  # shifting by the max changes nothing but avoids overflow
    e = np.exp(z - m)  # -inf - m -> -inf -> exp gives exactly 0
    return e / np.sum(e, axis=axis, keepdims=True)
