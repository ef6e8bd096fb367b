"""Mistake: rescale_factor with math.exp, a float where an exact value is asked; online_softmax is right."""
# diagnosis: an exact form is expected
# lesson: floats where exact values are asked
import math

import numpy as np


def rescale_factor(m_old, m_new):
    return math.exp(m_old - m_new)


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    m = np.full(z.shape[:-1] + (1,), -np.inf)
    l = np.zeros(z.shape[:-1] + (1,))
    for start in range(0, z.shape[-1], block):
        part = z[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new)
        l = l * np.exp(m - safe) + np.exp(part - safe).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(z - m) / l
