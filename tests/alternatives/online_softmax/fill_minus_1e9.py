"""Right: the masked scores filled with -1e9 first, as the tutorials fill a mask, then the paper's loop with no
special case: a block masked entirely has the maximum -1e9, an ordinary number, so nothing gives nan, and
e^(-1e9 - m) is exactly 0 beside any real score."""
import numpy as np
import sympy

NEG = -1e9


def rescale_factor(m_old, m_new):
    return sympy.exp(sympy.Integer(m_old - m_new))


def online_softmax(z, block):
    s = np.where(np.isneginf(z), NEG, np.asarray(z, dtype=np.float64))
    m = np.full(s.shape[:-1] + (1,), NEG)
    l = np.zeros(s.shape[:-1] + (1,))
    for j in range(0, s.shape[-1], block):
        tile = s[..., j:j + block]
        m_new = np.maximum(m, tile.max(axis=-1, keepdims=True))
        l = np.exp(m - m_new) * l + np.exp(tile - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(s - m) / l
