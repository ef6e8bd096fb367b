"""Mistakes, two at once: always works along the last axis, whatever axis is asked for, and subtracts the
maximum in place (z -= ...), changing the caller's array. Written blind, without reading the graders."""
# diagnosis: always runs along the last axis
# diagnosis: modified z in place
# diagnosis: work on a copy
# lesson: softmax over the wrong axis or the whole array
import numpy as np


def softmax(z, axis=-1):
    z -= z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
