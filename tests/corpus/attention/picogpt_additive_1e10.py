"""picoGPT style: an additive mask (1 - tri) * -1e10 added to the scores inside softmax(...).

Pure NumPy GPT-2; the mask is a float bias of 0 / -1e10, not a boolean select.
"""
# source: jaymody/picoGPT:gpt2.py (softmax, attention, mha's causal_mask)
# license: MIT
# adapted: attention takes the exercise's boolean mask and turns it into picoGPT's additive
#   (1 - mask) * -1e10 bias (None -> no bias); it returns (y, weights) instead of only y;
#   causal_mask returns the boolean np.tri instead of the bias; padding_mask (absent in picoGPT) completed
#   in the same terse one-liner style.
import numpy as np


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def causal_mask(n):  # [n_seq, n_seq]
    return np.tri(n, dtype=bool)


def padding_mask(n_valid, n):  # [n_seq, n_seq]
    return (np.arange(n) < n_valid)[None, :].repeat(n, axis=0)


def attention(q, k, v, mask=None):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
    mask = 0.0 if mask is None else (1 - mask) * -1e10
    w = softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask)
    return w @ v, w
