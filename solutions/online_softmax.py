"""Reference solution for online_softmax: the softmax block by block, as FlashAttention computes it."""

import numpy as np
import sympy


def rescale_factor(m_old: int, m_new: int):
    """The exact factor that turns e^(z - m_old) into e^(z - m_new), a SymPy value."""
    return sympy.exp(sympy.Integer(m_old) - sympy.Integer(m_new))  # e^(z - m_old) e^(m_old - m_new) = e^(z - m_new)


def online_softmax(z: np.ndarray, block: int) -> np.ndarray:
    """Softmax of ``z`` along its last axis, read in blocks of ``block``; z's shape, float64."""
    z = np.asarray(z, dtype=np.float64)
    n = z.shape[-1]
    m = np.full(z.shape[:-1] + (1,), -np.inf)  # the running maximum of each row
    l = np.zeros(z.shape[:-1] + (1,))  # the running sum of e^(z_j - m)
    for start in range(0, n, block):  # the last block may be shorter
        part = z[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new)  # all masked so far: -inf - (-inf) would be nan
        l = l * np.exp(m - safe) + np.exp(part - safe).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(z - m) / l  # m is each row's maximum now, l the sum of e^(z_j - m)
