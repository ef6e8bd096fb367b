"""Right, head_dim from the most common line in hand-written multi-head attention classes,
`assert d_model % num_heads == 0, "d_model must be divisible by num_heads"` followed by
`d_k = d_model // num_heads`. An assert raises AssertionError (and vanishes under python -O), while
the contract asks for ValueError, so the check is rewritten as an if/raise ValueError with the same
message. Scores divided by math.sqrt(d_k) as the same classes do; softmax with keepdims along the
last axis, as the companion NumPy snippets write it."""
# source: ramzd18/deepseek-sae: src/transformer.py (MultiHeadAttention.__init__: assert d_model %
#         num_heads == 0, "d_model must be divisible by num_heads"; self.d_k = d_model // num_heads);
#         softmax: Furvos/self_attention: test_attention.py (x - np.max(x, axis=1, keepdims=True))
# license: unknown
# adapted: assert ... -> if d_model % n_heads != 0: raise ValueError(same message) (the assert raises
#          AssertionError, not the ValueError the contract asks for); axis=1 -> axis=-1 for a 1-D
#          row of scores; torch division by math.sqrt(self.d_k) applied to a NumPy array; * 100
import math

import numpy as np


def softmax(x):
    x = x - np.max(x, axis=-1, keepdims=True)
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def scale_scores(raw, d_k):
    return raw / math.sqrt(d_k)


def softmax_percent(raw, d_k, scaled=True):
    if scaled:
        return softmax(scale_scores(raw, d_k)) * 100
    return softmax(raw) * 100


def head_dim(d_model, n_heads):
    if d_model % n_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // n_heads
    return d_k
