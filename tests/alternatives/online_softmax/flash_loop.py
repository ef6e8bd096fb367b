"""Right: the FlashAttention paper's loop (Algorithm 1, the softmax part), one row at a time, in Python
floats: m and l start at -inf and 0, a block that brings nothing new (all -inf so far) is skipped."""
import math

import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.E ** (m_old - m_new)


def online_softmax(z, block):
    rows = np.atleast_2d(np.asarray(z, dtype=np.float64))
    out = np.empty_like(rows)
    for r, row in enumerate(rows):
        m, l = -math.inf, 0.0
        for j in range(0, len(row), block):
            tile = row[j:j + block]
            m_tile = float(tile.max())
            m_new = max(m, m_tile)
            if m_new == -math.inf:  # nothing but masked scores so far
                continue
            l = l * math.exp(m - m_new) + float(np.exp(tile - m_new).sum())
            m = m_new
        out[r] = np.exp(row - m) / l
    return out.reshape(np.shape(z))
