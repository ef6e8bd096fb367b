"""Two mistakes: the running sum is never rescaled (s += ...), and nothing guards a running maximum of
-inf, so a block masked entirely gives nan. The loop as a hurried reader of the paper writes it."""
# diagnosis: not rescaled
# diagnosis: gives nan
import numpy as np
import sympy


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    n = z.shape[-1]
    running_max = np.full(z.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(z.shape[:-1] + (1,))
    for i in range(0, n, block):
        chunk = z[..., i:i + block]
        running_max = np.maximum(running_max, chunk.max(axis=-1, keepdims=True))
        running_sum = running_sum + np.exp(chunk - running_max).sum(axis=-1, keepdims=True)
    return np.exp(z - running_max) / running_sum
