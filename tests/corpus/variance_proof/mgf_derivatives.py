"""Right, the moments of a standard normal read off its moment generating function M(t) = exp(t²/2):
E[X] = M'(0), E[X²] = M''(0), with sympy.diff and .subs(t, 0); then independence, the sum over d_k
coordinates, and Var(q·k/√d_k) = Var(q·k)/(√d_k)²."""
# source: style the lessons invite (moments from the MGF, a standard route in a probability course)
# license: n/a
# adapted: n/a
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)

t = sympy.Symbol("t")
M = sympy.exp(t**2 / 2)
EX = sympy.diff(M, t, 1).subs(t, 0)
EX2 = sympy.diff(M, t, 2).subs(t, 0)


def product_mean():
    return EX * EX


def product_variance():
    return EX2 * EX2 - (EX * EX) ** 2


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(d_k) ** 2
