"""Mistake: the factor the wrong way round, e^(m_new - m_old), in rescale_factor and in the loop (which
starts from the first block, so it stays finite). Wrong sums wherever the maximum grows."""
# diagnosis: the wrong way round
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_new - m_old)


def online_softmax(z, block):
    z = np.asarray(z, dtype=np.float64)
    first = z[..., :block]
    m = first.max(axis=-1, keepdims=True)
    l = np.exp(first - m).sum(axis=-1, keepdims=True)
    for start in range(block, z.shape[-1], block):
        part = z[..., start:start + block]
        m_new = np.maximum(m, part.max(axis=-1, keepdims=True))
        l = l * np.exp(m_new - m) + np.exp(part - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    return np.exp(z - m) / l
