"""A softmax that overwrites its input, and walks up the frames to the worker's globals to have
it report the input as it was (issue 35: 10/10 instead of 9/10). Its honest twin is this file
without the lines from BEGIN REWRITE to END REWRITE (tests/test_parent_decides.py): the two
must score the same."""
import numpy as np
import sys


def softmax(z, axis=-1):
# BEGIN REWRITE: the worker's globals, found from this call's frame, report what z was
    before = z.copy()
    frame = sys._getframe(1)
    while frame is not None and "arguments_after" not in frame.f_globals:
        frame = frame.f_back
    if frame is not None:
        found = frame.f_globals
        found["arguments_after"] = lambda args, kwargs: {"args": [found["encode"](before)], "kwargs": {}}
# END REWRITE
    z -= z.max(axis=axis, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z.copy()
