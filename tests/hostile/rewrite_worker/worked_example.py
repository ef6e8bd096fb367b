"""scale_scores divides raw in place and head_dim leaves the uneven split to np.split; the file
rewrites the worker so that raw reads as unchanged and np.split's ValueError as a raise of its
own. Its honest twin is this file without the lines from BEGIN REWRITE to END REWRITE
(tests/test_parent_decides.py): the two must score the same."""
import numpy as np

# BEGIN REWRITE: the worker's own module, where it decided what changed and whose raise it was
import sys

_worker = sys.modules["_attn_worker"]
_worker.mutated = lambda before, args, kwargs: []
_worker._raised_by_a_raise_in = lambda exc, filename: True
# END REWRITE


def scale_scores(raw, d_k):
    raw /= np.sqrt(d_k)
    return raw


def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()


def head_dim(d_model, n_heads):
    heads = np.split(np.arange(d_model), n_heads)  # NumPy raises ValueError for an uneven split
    return len(heads[0])
