"""Hidden checks for online_softmax: they compare with the reference solution and are never shipped."""

from ..kit import check, compare, expect_array_close, fail, for_all, module, show, call_text
from ..online_softmax import CATALOGUE, FACTOR_CASES, masked_scores, scores_and_block, weights_of

sp = module("sympy")  # imported at first use (kit/lazy.py)


@check("online_softmax agrees with the reference, masked scores too", 1, hidden=True, uses=("online_softmax",))
def agrees_with_reference(sub, ref):
    def prop(case):
        z, block = case
        a = weights_of(sub, z, block)
        with CATALOGUE.reworded(sub, f"called {call_text('online_softmax', z, block)}; got {show(a)}: ", "."):
            expect_array_close("the result", ref.online_softmax(z, block), a, rtol=1e-7, atol=1e-12)

    for_all(scores_and_block(), prop, max_examples=25)
    for_all(masked_scores(), prop, max_examples=15)


@check("rescale_factor is exactly the reference's factor", 1, hidden=True, uses=("rescale_factor",))
def factor_exact(sub, ref):
    for m_old, m_new in FACTOR_CASES + ((-100, 100), (37, 41)):
        verdict = compare(sp.sympify(ref.rescale_factor(m_old, m_new)), sub.call("rescale_factor", m_old, m_new))
        if verdict.fraction < 1:
            fail(f"{call_text('rescale_factor', m_old, m_new)}: {verdict.message}.", verdict.fraction, verdict.outcome)
