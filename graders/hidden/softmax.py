"""Hidden checks for softmax: they compare with the reference solution and are never shipped."""

from ..kit import array_and_axis, call_text, check, expect_array_close, for_all, show
from ..softmax import CATALOGUE, softmax_of

TOL = 1e-9


@check("agrees with the reference softmax", 1, hidden=True, uses=("softmax",))
def agrees_with_reference(sub, ref):
    def prop(case):
        z, axis = case
        a = softmax_of(sub, z, axis)
        expected = ref.softmax(z, axis=axis)
        with CATALOGUE.reworded(sub, f"called {call_text('softmax', z, axis=axis)}; got {show(a)}: ", "."):
            expect_array_close("the result", expected, a, rtol=1e-7, atol=TOL)

    for_all(array_and_axis(bound=30.0), prop)
