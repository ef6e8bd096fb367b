"""scale_scores divides raw in place, and the file replaces the worker module's functions so that
each call's arguments are reported as they were before it. Its honest twin is this file without
the lines from BEGIN REWRITE to END REWRITE (tests/test_parent_decides.py): the two must score
the same."""
import sys

import numpy as np

# BEGIN REWRITE: the worker's module, whatever its name: a copy before each call, reported after it
for _m in list(sys.modules.values()):
    if hasattr(_m, "arguments_after") and hasattr(_m, "_answer"):
        def _answer(fn, args, kwargs, filename, after, m=_m, real=_m._answer):
            before = ([a.copy() if isinstance(a, np.ndarray) else a for a in args],
                      {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in kwargs.items()})
            m.arguments_after = lambda a, k: {"args": [m.encode(x) for x in before[0]],
                                              "kwargs": {n: m.encode(x) for n, x in before[1].items()}}
            return real(fn, args, kwargs, filename, after)
        _m._answer = _answer
# END REWRITE


def scale_scores(raw, d_k):
    raw /= np.sqrt(d_k)
    return raw.copy()


def softmax_percent(raw, d_k, scaled=True):
    s = raw / np.sqrt(d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError(f"{n_heads} heads cannot split d_model = {d_model}")
    return d_model // n_heads
