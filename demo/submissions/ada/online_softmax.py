"""online_softmax: Ada's answers."""
import math

import numpy as np


def rescale_factor(m_old, m_new):
    return f"exp({m_old} - ({m_new}))"


def _one_row(row, block):
    best, total = -math.inf, 0.0
    for start in range(0, len(row), block):
        chunk = [float(v) for v in row[start:start + block]]
        top = max([best] + chunk)
        if top == -math.inf:  # only masked scores so far: nothing to add
            continue
        scale = 0.0 if best == -math.inf else math.exp(best - top)
        total = total * scale + sum(math.exp(v - top) for v in chunk if v != -math.inf)
        best = top
    return [0.0 if v == -math.inf else math.exp(v - best) / total for v in row]


def online_softmax(z, block):
    z = np.asarray(z, dtype=float)
    rows = [_one_row(r, block) for r in z.reshape(-1, z.shape[-1])]
    return np.array(rows, dtype=float).reshape(z.shape)
