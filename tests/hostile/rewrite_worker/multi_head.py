"""Multi-head attention that folds the scaling into W_q in place and leaves an uneven split to
reshape's ValueError; the file rewrites the worker so that W_q reads as unchanged and every
exception as raised by a raise statement of its own. Its honest twin is this file without
the lines from BEGIN REWRITE to END REWRITE (tests/test_parent_decides.py): the two must
score the same."""
import numpy as np

# BEGIN REWRITE: the worker's own module, where it decided what changed and whose raise it was
import sys

_worker = sys.modules["_attn_worker"]
_describe = _worker.describe_exception


def _described(exc, filename):
    return dict(_describe(exc, filename), own=True)


_worker.describe_exception = _described
_worker.mutated = lambda before, args, kwargs: []
# END REWRITE


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = np.shape(X)
    d_k = d_model // n_heads
    v = (X @ W_v).reshape(N, n_heads, d_k)  # reshape raises ValueError when n_heads does not divide d_model
    W_q /= np.sqrt(d_k)
    q, k = (X @ W_q).reshape(N, n_heads, d_k), (X @ W_k).reshape(N, n_heads, d_k)
    s = np.einsum("ihd,jhd->hij", q, k)  # (H, N, N)
    if mask is not None:
        s = np.where(mask[None], s, -np.inf)
    y = np.einsum("hij,jhd->ihd", _softmax(s), v).reshape(N, d_model)  # heads side by side, head 0 first
    return y @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    W_q /= np.sqrt(W_q.shape[1])
    s = (X_dec @ W_q) @ (X_enc @ W_k).T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    a = _softmax(s)
    return a @ (X_enc @ W_v), a
