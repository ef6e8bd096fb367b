"""Right, sympy.stats used for the single moments only (E(q), E(q**2)) rather than variance(q*k):
Var(q_i k_i) = E[q_i²] E[k_i²] - (E[q_i] E[k_i])², then d_k copies of it, and the scaling rule
Var(cX) = c² Var(X) with c = 1/sqrt(d_k), simplified."""
# source: style the lessons invite (the stub's "useful facts", computed with sympy.stats.E)
# license: n/a
# adapted: n/a
import sympy as sp
from sympy.stats import E, Normal

d_k = sp.Symbol("d_k", positive=True, integer=True)

q = Normal("q", 0, 1)
k = Normal("k", 0, 1)


def product_mean():
    return E(q) * E(k)


def product_variance():
    return E(q**2) * E(k**2) - (E(q) * E(k)) ** 2


def dot_variance():
    return sp.Mul(d_k, product_variance())


def scaled_dot_variance():
    return sp.simplify((1 / sp.sqrt(d_k)) ** 2 * dot_variance())
