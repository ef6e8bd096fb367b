"""nanoGPT style: att.masked_fill(bias == 0, float('-inf')) with a tril "bias" buffer.

PyTorch code translated to NumPy; masked scores become -inf before the softmax.
"""
# source: karpathy/nanoGPT:model.py (CausalSelfAttention.forward, the "manual implementation of attention")
# license: MIT
# adapted: torch -> NumPy (masked_fill -> np.where, F.softmax -> max-shifted exp / sum); single head,
#   no batch/head dims; the tril buffer is built by causal_mask(n) (as bool) and any given mask is
#   used in its place; padding_mask written in the same tril/ones style; returns (y, att).
import math

import numpy as np


def causal_mask(n):
    # causal mask to ensure that attention is only applied to the left in the input sequence
    bias = np.tril(np.ones((n, n)))
    return bias == 1


def padding_mask(n_valid, n):
    bias = np.ones((n, n))
    bias[:, n_valid:] = 0
    return bias == 1


def attention(q, k, v, mask=None):
    # Self-attend: (T, hs) x (hs, T) -> (T, T)
    att = (q @ k.T) * (1.0 / math.sqrt(k.shape[-1]))
    if mask is not None:
        att = np.where(mask == 0, float('-inf'), att)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    y = att @ v  # (T, T) x (T, hs) -> (T, hs)
    return y, att
