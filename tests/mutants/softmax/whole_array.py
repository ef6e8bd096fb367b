"""Mistake: shifts and normalises over the whole array instead of along the axis."""
# diagnosis: normalised over the whole array
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - z.max())
    return e / e.sum()
