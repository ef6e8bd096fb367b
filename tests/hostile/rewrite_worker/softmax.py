"""A softmax that overwrites its input, and rewrites the worker so that it reports the input
unchanged. Its honest twin is this file without the lines from BEGIN REWRITE to END REWRITE
(tests/test_parent_decides.py): the two must score the same."""
import numpy as np

# BEGIN REWRITE: the worker's own module, where it decided whether an argument changed
import sys

_worker = sys.modules["_attn_worker"]
_worker.snapshot = lambda args, kwargs: {}
_worker.mutated = lambda before, args, kwargs: []
# END REWRITE


def softmax(z, axis=-1):
    z -= z.max(axis=axis, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z.copy()
