"""Attention that scales Q in place, and rewrites the worker so that it reports Q unchanged.
Its honest twin is this file without the lines from BEGIN REWRITE to END REWRITE
(tests/test_parent_decides.py): the two must score the same."""
import numpy as np

# BEGIN REWRITE: the worker's own module, where it kept its copies of the arguments
import sys

sys.modules["_attn_worker"].snapshot = lambda args, kwargs: {}
# END REWRITE


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_valid, n):
    return np.tile(np.arange(n) < n_valid, (n, 1))


def attention(Q, K, V, mask=None):
    Q /= np.sqrt(Q.shape[-1])
    s = Q @ K.T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)
    return a @ V, a
