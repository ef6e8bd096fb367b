"""Mistake: no maximum at all: the running sum of e^z. Right for small scores; e^1e4 overflows to inf."""
# diagnosis: overflows to inf
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    l = np.zeros(z.shape[:-1] + (1,))
    for start in range(0, z.shape[-1], block):
        l = l + np.exp(z[..., start:start + block]).sum(axis=-1, keepdims=True)
    return np.exp(z) / l
