"""Pure-Python style: m = max(x); exps = [exp(v - m) for v in x]; s = sum(exps); [v / s for v in exps],
run over every 1-D slice along the axis with explicit loops.
"""
# source: public code found by the search index (file id 46629289003, "Stable softmax (numerical stability)";
#   the index does not name its repository); the same snippet appears in several interview-prep notes
# license: unknown
# adapted: the original maps a Sequence[float] to a list[float]; here the slices along `axis` are looped
#   over with np.ndindex on a moveaxis view and written into a new float64 array; the empty-input guard kept.
from math import exp
from typing import Sequence

import numpy as np


def _softmax_1d(x: Sequence[float]) -> list[float]:
    if not x:
        return []
    m = max(x)
    exps = [exp(v - m) for v in x]
    s = sum(exps)
    return [v / s for v in exps]


def softmax(z, axis=-1):
    out = np.empty(np.shape(z), dtype=np.float64)
    src = np.moveaxis(np.asarray(z), axis, -1)
    dst = np.moveaxis(out, axis, -1)
    for idx in np.ndindex(*src.shape[:-1]):
        dst[idx] = _softmax_1d([float(v) for v in src[idx]])
    return out
