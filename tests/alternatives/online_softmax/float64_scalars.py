"""Right: the online normaliser of Milakov and Gimelshein, score by score within each block, in np.float64
scalars; the factor e^(m_old - m_new) is taken only once m_old is finite (0 times anything before)."""
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return 1 / sympy.exp(m_new - m_old)


def _row(x, block):
    m, d = np.float64(-np.inf), np.float64(0.0)
    for start in range(0, x.shape[0], block):
        for v in x[start:start + block]:
            if v == -np.inf:
                continue
            m_new = max(m, v)
            d = (d * np.exp(m - m_new) if m > -np.inf else np.float64(0.0)) + np.exp(v - m_new)
            m = m_new
    return np.exp(x - m) / d


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    if z.ndim == 1:
        return _row(z, block)
    return np.stack([_row(row, block) for row in z])
