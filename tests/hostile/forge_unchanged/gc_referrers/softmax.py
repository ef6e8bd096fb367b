"""A softmax that overwrites its input, and finds the worker's globals among the garbage
collector's objects to have it report the input as it was. Its honest twin is this file without
the lines from BEGIN REWRITE to END REWRITE (tests/test_parent_decides.py): the two must score
the same."""
import numpy as np


def softmax(z, axis=-1):
# BEGIN REWRITE: every dict that holds the worker's report, rewritten
    import gc
    before = z.copy()
    for found in [o for o in gc.get_referrers(np) if isinstance(o, dict) and "arguments_after" in o]:
        found["arguments_after"] = lambda args, kwargs, g=found: {"args": [g["encode"](before)], "kwargs": {}}
    for found in [o for o in gc.get_objects() if isinstance(o, dict) and "arguments_after" in o]:
        found["arguments_after"] = lambda args, kwargs, g=found: {"args": [g["encode"](before)], "kwargs": {}}
# END REWRITE
    z -= z.max(axis=axis, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z.copy()
