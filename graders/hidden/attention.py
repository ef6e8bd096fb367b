"""Hidden checks for attention: they compare with the reference solution and are never shipped."""

import numpy as np

from ..attention import ALL, TOL, TRI3, _attend, _for_all, masked_case
from ..kit.checks import Fail, check, diagnose, expect_array_close, show
from ..kit.strategies import qkv


def _softmax_rows(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _mistakes(q, k, v, mask):
    """Known wrong (Y, A) makers, each with what it says to the student."""
    d_k, s = q.shape[1], q @ k.T
    fill = (lambda x: x) if mask is None else (lambda x: np.where(mask, x, -np.inf))
    out = lambda a: (a @ v, a)  # noqa: E731
    soft = lambda x: out(_softmax_rows(fill(x)))  # noqa: E731
    return [
        ("the scores were not divided by √d_k", lambda: soft(s)),
        ("it looks like the scores were divided by d_k instead of √d_k", lambda: soft(s / d_k)),
        ("it looks like the scores were divided by √d_v (the value size) instead of √d_k",
         lambda: soft(s / np.sqrt(v.shape[1]))),
        ("it looks like the scores were divided by the square root of the number of keys instead of √d_k",
         lambda: soft(s / np.sqrt(k.shape[0]))),
        ("it looks like the softmax runs over axis=0 (the queries) instead of each row",
         lambda: out(_softmax_rows(fill(s / np.sqrt(d_k)), axis=0))),
        ("the weights are exp(scores) without dividing by the row sum", lambda: out(np.exp(fill(s / np.sqrt(d_k))))),
        ("the masked weights are zeroed after the softmax without renormalising",
         lambda: out(_softmax_rows(s / np.sqrt(d_k)) * mask)),
    ]


def _agree(sub, ref, q, k, v, mask=None):
    y, a, call = _attend(sub, q, k, v, mask)
    ey, ea = ref.attention(q, k, v) if mask is None else ref.attention(q, k, v, mask)
    for name, expected, got, i in (("A", ea, a, 1), ("Y", ey, y, 0)):
        try:
            expect_array_close(name, expected, got, rtol=TOL, atol=TOL)
        except Fail as exc:
            with np.errstate(all="ignore"):
                hint = diagnose(got, [(m, lambda f=f: f()[i]) for m, f in _mistakes(q, k, v, mask)], rtol=1e-7)
            raise Fail(f"called {call}; got {name} = {show(got)}: {exc.message}."
                       + (f" Hint: {hint}." if hint else "")) from None


PINNED = (np.array([[1.0, 0.5, -0.5, 1.0], [0.0, 1.0, 1.0, -1.0]]),
          np.array([[1.0, 0.0, 1.0, 0.5], [0.5, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.5, 0.0]]),
          np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]]))


@check("agrees with the reference attention (no mask)", 2, hidden=True, uses=ALL)
def agrees_unmasked(sub, ref):
    _for_all(qkv(), lambda c: _agree(sub, ref, *c), examples=[PINNED])


@check("agrees with the reference attention (with masks)", 1, hidden=True, uses=ALL)
def agrees_masked(sub, ref):
    ex = (PINNED[1], PINNED[1][::-1] * 1.5, PINNED[2], TRI3, "causal")
    _for_all(masked_case(), lambda c: _agree(sub, ref, *c[:4]), examples=[ex])
