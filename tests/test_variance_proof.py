"""The variance_proof reference values, checked independently with sympy.stats.

q and k have independent standard normal entries. sympy.stats works out the
per-coordinate moments and, for concrete sizes d_k = 1 and 2, the variance of
q·k and of q·k / √d_k. The reference's Var(q·k) is at most linear in d_k, so
two sizes pin it down for every d_k; the scaled variance must not depend on
d_k at all. (d_k = 3 is left out: sympy.stats takes seconds there.)
"""

import pytest
import sympy as sp
from sympy.stats import E, Normal, variance

from graders.grading.engine import reference

ref = reference("variance_proof")
SIZES = (1, 2)


def _q_dot_k(n):
    q = [Normal(f"q{i}", 0, 1) for i in range(n)]
    k = [Normal(f"k{i}", 0, 1) for i in range(n)]
    return sum(qi * ki for qi, ki in zip(q, k))


def test_per_coordinate_moments():
    q, k = Normal("q", 0, 1), Normal("k", 0, 1)
    assert sp.simplify(E(q * k) - ref.product_mean()) == 0
    assert sp.simplify(variance(q * k) - ref.product_variance()) == 0


def test_dot_variance_is_an_expression_in_d_k_at_most_linear():
    expr = sp.sympify(ref.dot_variance())
    assert expr.free_symbols == {ref.d_k}
    assert sp.Poly(expr, ref.d_k).degree() <= 1  # so the sizes below decide it for every d_k


@pytest.mark.parametrize("n", SIZES)
def test_dot_variance_matches_sympy_stats(n):
    assert sp.simplify(variance(_q_dot_k(n)) - ref.dot_variance().subs(ref.d_k, n)) == 0


def test_scaled_dot_variance_does_not_depend_on_d_k():
    assert ref.d_k not in sp.simplify(sp.sympify(ref.scaled_dot_variance())).free_symbols


@pytest.mark.parametrize("n", SIZES)
def test_scaled_dot_variance_matches_sympy_stats(n):
    scaled = variance(_q_dot_k(n) / sp.sqrt(n))
    assert sp.simplify(scaled - sp.sympify(ref.scaled_dot_variance()).subs(ref.d_k, n)) == 0
