"""Hidden checks for attention: they compare with the reference solution and are never shipped."""

from ..attention import ALL, CATALOGUE, K3, Q2, TOL, TRI3, V3, attention_of, quick_for_all
from ..kit import check, expect_array_close, masked_case, qkv, show


def _agree(sub, ref, q, k, v, mask=None):
    y, a, call = attention_of(sub, q, k, v, mask)
    ey, ea = ref.attention(q, k, v) if mask is None else ref.attention(q, k, v, mask)
    for name, expected, got in (("A", ea, a), ("Y", ey, y)):
        with CATALOGUE.reworded(sub, f"called {call}; got {name} = {show(got)}: ", "."):
            expect_array_close(name, expected, got, rtol=TOL, atol=TOL)


PINNED = (Q2, K3, V3)  # the Catalogue's first probe: N_q != N_k, d_k != d_v


@check("agrees with the reference attention (no mask)", 2, hidden=True, uses=ALL)
def agrees_unmasked(sub, ref):
    quick_for_all(qkv(), lambda c: _agree(sub, ref, *c), examples=[PINNED])


@check("agrees with the reference attention (with masks)", 1, hidden=True, uses=ALL)
def agrees_masked(sub, ref):
    ex = (PINNED[1], PINNED[1][::-1] * 1.5, PINNED[2], TRI3, "causal")
    quick_for_all(masked_case(), lambda c: _agree(sub, ref, *c[:4]), examples=[ex])
