"""online_softmax: Ben's answers."""
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    pieces = []
    for i in range(0, z.shape[-1], block):
        chunk = z[..., i:i + block]
        e = np.exp(chunk - chunk.max(axis=-1, keepdims=True))
        pieces.append(e / e.sum(axis=-1, keepdims=True))
    return np.concatenate(pieces, axis=-1)
