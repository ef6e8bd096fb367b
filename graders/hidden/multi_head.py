"""Hidden checks for multi_head: they compare with the reference solution and are never shipped."""

import numpy as np

from ..kit import attend, call_text, check, cross_cases, expect_array_close, for_all, mha_cases, show
from ..multi_head import CROSS, CROSS_CATALOGUE, MHA, MHA_CATALOGUE, TOL, cross_of, fixed_inputs, mask_kw, mha_of


def _against(sub, name, call, expected, got, catalogue):
    """Fail, with a hint where the probes identify a known mistake."""
    named = "" if name == "the result" else f"{name} = "
    with catalogue.reworded(sub, f"called {call}; got {named}{show(got)}: ", "."):
        expect_array_close(name, expected, got, **TOL)


def _mha_against(sub, case, expected):
    x, wq, wk, wv, wo, h, mask = case
    _against(sub, "the result", call_text(MHA, x, wq, wk, wv, wo, h, **mask_kw(mask)), expected, mha_of(sub, *case),
             MHA_CATALOGUE)


@check("multi_head_attention agrees with a per-head reference, for 1 to 4 heads", 1.5, hidden=True, uses=(MHA,))
def mha_agrees(sub, ref):
    for_all(mha_cases(), lambda case: _mha_against(sub, case, ref.multi_head_attention(*case)))
    for h, d in ((1, 4), (2, 4), (3, 6), (4, 8), (2, 8)):
        x, *ws = fixed_inputs(h + d, 4, d)
        for mask in (None, np.tri(4, dtype=bool)):
            _mha_against(sub, (x, *ws, h, mask), ref.multi_head_attention(x, *ws, h, mask))


@check("one head with W_o = I is single-head attention softmax(Q K^T / sqrt(d)) V", 0.5, hidden=True, uses=(MHA,))
def one_head_is_attention(sub, ref):
    def prop(case):
        x, wq, wk, wv, _, _, mask = case
        expected = attend(x @ wq, x @ wk, x @ wv, mask)[0]
        _mha_against(sub, (x, wq, wk, wv, np.eye(x.shape[1]), 1, mask), expected)

    for_all(mha_cases(heads=(1, 1)), prop, max_examples=25)


@check("cross_attention agrees with the reference (Y and A)", 1, hidden=True, uses=(CROSS,))
def cross_agrees(sub, ref):
    def prop(case):
        y, a = cross_of(sub, *case)
        ey, ea = ref.cross_attention(*case)
        call = call_text(CROSS, *case[:5], **mask_kw(case[5]))
        _against(sub, "A", call, ea, a, CROSS_CATALOGUE)
        _against(sub, "Y", call, ey, y, CROSS_CATALOGUE)

    for_all(cross_cases(distinct=False), prop, max_examples=30)
