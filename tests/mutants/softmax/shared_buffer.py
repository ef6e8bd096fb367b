"""Mistake: the softmax writes every result into one buffer per shape, kept between calls (to save
allocations), so the next call of that shape overwrites the result the caller holds."""
# diagnosis: the second call wrote into the array the first returned
# diagnosis: an array of its own
import numpy as np
_out = {}
def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    buf = _out.setdefault(z.shape, np.empty(z.shape))
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    np.divide(e, e.sum(axis=axis, keepdims=True), out=buf)
    return buf
