"""Models of known mistakes: what a wrong scaling, mask or softmax makes of attention.

A grader's ``Mistake`` (catalogue.py) pairs a hint with a model of the wrong answer; the
models of the attention family (attention, multi-head and cross-attention, the worked
example's percentages) are built from ``attend`` with one mistake switched on. They run
in the parent on the grader's own probes and are never shown to the student.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from .checks import Fail, Raised, advice

__all__ = ["weights", "masked", "attend", "heads", "EXP_RANGE", "NO_SHIFT", "overflow", "overflow_raised"]

# The one wording of the mistake every softmax of the exercises can make, and of the advice that goes
# with an infinite result: np.exp of the scores as they are.
EXP_RANGE = "np.exp overflows to inf beyond about 709, or underflows to 0 below about -745, on the scores as they are"
NO_SHIFT = ("np.exp is taken of the entries as they are, and it overflows to inf for large ones: subtract the "
            "maximum along the axis first (for one row of scores, subtract the largest score first); it does not "
            "change the softmax")  # a Mistake's ``says``: the hint "It looks like ..."


def overflow(largest: str) -> str:
    """The advice for a result that was not finite (registered with ``advice``): EXP_RANGE, then the fix,
    subtracting ``largest`` ("each row's maximum score") before np.exp."""
    return advice(f"{EXP_RANGE}: subtract {largest} before np.exp (it does not change the softmax).")


@contextmanager
def overflow_raised(advice_text: str):
    """A student's call in here that raised OverflowError (math.exp's "math range error", or
    NumPy's with np.seterr(over="raise")) fails with the same ``advice_text`` (``overflow``) as an
    np.exp that overflowed to inf: one mistake, one piece of advice, whichever exp was used."""
    try:
        yield
    except Raised as exc:
        if not exc.is_a("OverflowError") and "overflow" not in exc.info["message"].lower():
            raise
        raise Fail(f"{exc}\n{advice_text}") from None


def weights(s, norm="rows", axis=-1):
    """Softmax of ``s`` along ``axis`` ("rows"), down the other axis of a matrix ("columns"),
    over the whole array ("whole"), each row shifted by its own maximum but divided by the sum
    of the whole array ("rows, whole sum"), or exponentials never normalised ("none")."""
    if norm == "none":
        return np.exp(s)
    if norm == "whole":
        w = np.exp(s - s.max())
        return w / w.sum()
    if norm == "rows, whole sum":
        w = np.exp(s - s.max(axis=axis, keepdims=True))
        return w / w.sum()
    if norm == "columns":
        axis = 0
    w = np.exp(s - s.max(axis=axis, keepdims=True))
    return w / w.sum(axis=axis, keepdims=True)


def masked(s, mask, masking="-inf"):
    """The scores ``s`` after a mask, applied right ("-inf") or in a known wrong way."""
    if mask is None or masking in ("ignored", "after"):
        return s
    if masking == "inverted":
        return np.where(mask, -np.inf, s)
    if masking == "times":
        return s * mask
    if masking == "zero":
        return np.where(mask, s, 0.0)
    return np.where(mask, s, -np.inf)


def attend(q, k, v, mask=None, *, divide_by=None, masking="-inf", norm="rows"):
    """(Y, A) of scaled dot-product attention, scores divided by √divide_by (default d_k = q.shape[1]),
    with at most one mistake switched on through ``masking`` or ``norm``."""
    d = q.shape[1] if divide_by is None else divide_by
    a = weights(masked(q @ k.T / np.sqrt(d), mask, masking), norm)
    if mask is not None and masking == "after":
        a = a * mask
    return a @ v, a


def heads(x, wq, wk, wv, wo, h, mask=None, *, divide_by="d_k", take="blocks", put="blocks", order=1,
           project="W_o", **att):
    """Multi-head attention with one known mistake switched on: each head's scores divided by
    √d_model, not at all or by d_k; heads taken from interleaved columns or from rows (tokens); put
    back interleaved, in reverse order or by a reshape of (n_heads, N, d_k) that mixes tokens; W_o left
    out or transposed; or a mistake of ``attend``."""
    n, d = x.shape
    dk = d // h
    blocks, inter = [slice(j * dk, (j + 1) * dk) for j in range(h)], [slice(j, None, h) for j in range(h)]
    if take == "tokens":  # (N, d_model) reshaped straight to (n_heads, N, d_k)
        parts = [list((x @ w).reshape(h, n, dk)) for w in (wq, wk, wv)]
    else:
        parts = [[(x @ w)[:, c] for c in (blocks if take == "blocks" else inter)] for w in (wq, wk, wv)]
    size = {"d_k": dk, "d_model": d, "none": 1, "d_k²": dk ** 2}[divide_by]
    outs = [attend(*qkv, mask, divide_by=size, **att)[0] for qkv in zip(*parts)]
    if put == "tokens":  # (n_heads, N, d_k) reshaped straight back to (N, d_model)
        y = np.stack(outs).reshape(n, d)
    else:
        y = np.empty((n, d))
        for c, o in zip(blocks if put == "blocks" else inter, outs[::order]):
            y[:, c] = o
    return {"W_o": y @ wo, "none": y, "transposed": y @ wo.T}[project]
