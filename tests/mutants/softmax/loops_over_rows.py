"""Mistake: loops over z[i] and normalises each z[i] as a whole, so the axis argument is ignored: a matrix is
always done along its last axis, a 1-D array gets a weight of 1 for every entry, and a 3-D array is
normalised per 2-D slice. Written blind, without reading the graders."""
# diagnosis: none
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    out = np.empty_like(z)
    for i in range(z.shape[0]):
        row = z[i]
        e = np.exp(row - np.max(row))
        out[i] = e / np.sum(e)
    return out
