"""Hidden checks for multi_head: they compare with the reference solution and are never shipped."""

import numpy as np

from ..kit.checks import Fail, call_text, check, diagnose, expect_array_close, show
from ..multi_head import CROSS, MHA, TOL, _cross, _fixed, _kw, _mha, cross_cases, mha_cases
from ..kit.props import for_all


def _att(q, k, v, mask, scale, use_mask=True, fill=-np.inf, axis=-1):
    s = q @ k.T / np.sqrt(scale)
    if mask is not None and use_mask:
        s = np.where(mask, s, fill)
    a = np.exp(s - s.max(axis=axis, keepdims=True))
    a = a / a.sum(axis=axis, keepdims=True)
    return a @ v, a


def _heads(x, wq, wk, wv, wo, h, mask, scale="d_k", cols="block", order=1, project=True, mix=False, **att):
    """Multi-head attention with one known mistake switched on."""
    n, d = x.shape
    dk = d // h
    blocks = [slice(j * dk, (j + 1) * dk) for j in range(h)]
    taken = blocks if cols == "block" else [slice(j, None, h) for j in range(h)]
    split = (lambda m: m.reshape(h, n, dk)) if mix else (lambda m: [m[:, b] for b in taken])
    qs, ks, vs = (split(x @ w) for w in (wq, wk, wv))
    outs = [_att(*qkv, mask, {"d_k": dk, "d_model": d, "none": 1}[scale], **att)[0] for qkv in zip(qs, ks, vs)]
    y = np.stack(outs).reshape(n, d) if mix else np.empty((n, d))
    for b, o in ([] if mix else zip(taken if cols == "both" else blocks, outs[::order])):
        y[:, b] = o
    return y @ wo if project else y


def _cross_variant(xd, xe, wq, wk, wv, mask, scale="d_k", q_from="dec", kv_from="enc", **att):
    """Cross-attention with one known mistake switched on; returns (Y, A)."""
    side = {"dec": xd, "enc": xe}
    if scale == "d=1" and xd.shape[1] != 1:
        raise ValueError("this mistake needs inputs of width 1")
    scale = {"d_k": wq.shape[1], "d": xd.shape[1], "d=1": 1, "d_v": wv.shape[1], "none": 1}[scale]
    return _att(side[q_from] @ wq, side[kv_from] @ wk, side[kv_from] @ wv, mask, scale, **att)


MASKING = "masked keys still get weight: the mask seems ignored, or masked scores set to 0 instead of -inf"


COMMON_MISTAKES = (
    (MASKING, dict(use_mask=False)), (MASKING, dict(fill=0.0)),
    ("the softmax seems taken down the columns (over the queries) instead of along each row (over the keys)",
     dict(axis=0)),
)


NO_SCALE = ("the scores seem not divided by sqrt(d_k) at all", dict(scale="none"))


INTERLEAVED = ("head h seems to take the interleaved columns h, h + n_heads, h + 2*n_heads, ...; it takes the "
               "contiguous block h*d_k:(h+1)*d_k")


MHA_MISTAKES = COMMON_MISTAKES + (
    ("the scores seem divided by sqrt(d_model); each head divides by sqrt(d_k), its own width d_model / n_heads",
     dict(scale="d_model")), NO_SCALE,
    ("the output projection W_o seems left out: concatenate the heads, then multiply by W_o", dict(project=False)),
    (INTERLEAVED, dict(cols="interleaved")), (INTERLEAVED, dict(cols="both")),
    ("the heads seem concatenated in reverse order; head 0 comes first", dict(order=-1)),
    ("(N, d_model) seems reshaped straight to (n_heads, N, d_k), which splits the rows (tokens) between heads "
     "instead of the columns; reshape to (N, n_heads, d_k) and move the head axis first", dict(mix=True)),
)


CROSS_MISTAKES = COMMON_MISTAKES + (
    ("keys and values seem to come from X_dec; in cross-attention they come from the encoder, X_enc",
     dict(kv_from="dec")),
    ("queries and keys/values seem swapped: queries come from the decoder X_dec, keys and values from X_enc",
     dict(q_from="enc", kv_from="dec")),
    ("the queries seem to come from X_enc; they come from the decoder, X_dec", dict(q_from="enc")),
    ("the scores seem not divided by sqrt(d_k), the number of columns of W_q; X has width d = 1 here, so dividing "
     "by sqrt(d), the width of X, would look the same as not dividing at all", dict(scale="d=1")),
    ("the scores seem divided by sqrt(d), the width of X, instead of sqrt(d_k), the number of columns of W_q",
     dict(scale="d")), NO_SCALE,
    ("the scores seem divided by sqrt(d_v), the width of W_v, instead of sqrt(d_k), the number of columns of W_q",
     dict(scale="d_v")),
)


def _against(name, call, expected, got, variant, mistakes):
    """Fail, naming a known mistake where ``got`` matches ``variant(**mistake)``."""
    try:
        expect_array_close(name, expected, got, **TOL)
    except Fail as exc:
        with np.errstate(all="ignore"):
            hint = diagnose(got, [(m, lambda kw=kw: variant(**kw)) for m, kw in mistakes])
        raise Fail(f"called {call}; got {'' if name == 'the result' else name + ' = '}{show(got)}: {exc.message}."
                   + (f" Hint: {hint}." if hint else "")) from None


def _mha_against(sub, case, expected):
    x, wq, wk, wv, wo, h, mask = case
    _against("the result", call_text(MHA, x, wq, wk, wv, wo, h, **_kw(mask)), expected, _mha(sub, *case),
             lambda **kw: _heads(*case, **kw), MHA_MISTAKES)


@check("multi_head_attention agrees with a per-head reference, for 1 to 4 heads", 3, hidden=True, uses=(MHA,))
def mha_agrees(sub, ref):
    for_all(mha_cases(), lambda case: _mha_against(sub, case, ref.multi_head_attention(*case)))
    for h, d in ((1, 4), (2, 4), (3, 6), (4, 8), (2, 8)):
        x, *ws = _fixed(h + d, 4, d)
        for mask in (None, np.tri(4, dtype=bool)):
            _mha_against(sub, (x, *ws, h, mask), ref.multi_head_attention(x, *ws, h, mask))


@check("one head with W_o = I is single-head attention softmax(Q K^T / sqrt(d)) V", 1, hidden=True, uses=(MHA,))
def one_head_is_attention(sub, ref):
    def prop(case):
        x, wq, wk, wv, _, _, mask = case
        expected = _att(x @ wq, x @ wk, x @ wv, mask, x.shape[1])[0]
        _mha_against(sub, (x, wq, wk, wv, np.eye(x.shape[1]), 1, mask), expected)

    for_all(mha_cases(heads=(1, 1)), prop, max_examples=25)


@check("cross_attention agrees with the reference (Y and A)", 1, hidden=True, uses=(CROSS,))
def cross_agrees(sub, ref):
    def prop(case):
        y, a = _cross(sub, *case)
        ey, ea = ref.cross_attention(*case)
        call = call_text(CROSS, *case[:5], **_kw(case[5]))
        _against("A", call, ea, a, lambda **kw: _cross_variant(*case, **kw)[1], CROSS_MISTAKES)
        _against("Y", call, ey, y, lambda **kw: _cross_variant(*case, **kw)[0], CROSS_MISTAKES)

    for_all(cross_cases(distinct=False), prop, max_examples=30)
