"""Mistake: off by one at the block boundaries: range(n // block) blocks, so the last, shorter block is never
read when block does not divide n (its scores still get e^(z - m) / l, with m and l that never saw them)."""
# diagnosis: the last, shorter block is never read
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    m = np.full(z.shape[:-1] + (1,), -np.inf)
    l = np.zeros(z.shape[:-1] + (1,))
    for b in range(z.shape[-1] // block):
        part = z[..., b * block:(b + 1) * block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new)
        l = l * np.exp(m - safe) + np.exp(part - safe).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(z - m) / l
