"""Correct: Var(q·k) left as an unevaluated Sum over the coordinates; strings for the constants."""
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)
i = sympy.Symbol("i", integer=True)


def product_mean():
    return "0"


def product_variance():
    return "1*1 - (0*0)^2"


def dot_variance():
    return sympy.Sum(1, (i, 1, d_k))


def scaled_dot_variance():
    return sympy.Sum(sympy.Rational(1, 1), (i, 1, d_k)) / d_k
