"""Mistake: pulls the constant out of the variance without squaring it, Var(q·k/√d_k) = d_k/√d_k."""
# diagnosis: was not squared
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return d_k


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(d_k)
