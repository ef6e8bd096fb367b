"""Mistake: the FlashAttention loop as the paper writes it, with no care for a block masked entirely: while
the running maximum is -inf, e^(m_old - m_new) is e^(-inf - (-inf)) = nan, and the row is nan. Right
everywhere else (a -1e9 fill too)."""
# diagnosis: a block where every score is -inf gives nan
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    m = np.full(z.shape[:-1] + (1,), -np.inf)
    l = np.zeros(z.shape[:-1] + (1,))
    for start in range(0, z.shape[-1], block):
        part = z[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        l = l * np.exp(m - m_new) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(z - m) / l
