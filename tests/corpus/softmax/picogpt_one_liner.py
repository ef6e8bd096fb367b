"""picoGPT style: a two-line softmax, exp(x - max) over the last axis divided by its sum."""
# source: jaymody/picoGPT:gpt2.py (softmax)
# license: MIT
# adapted: the hard-coded axis=-1 became the axis parameter; argument renamed to the exercise's z.
import numpy as np


def softmax(z, axis=-1):
    exp_x = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)
