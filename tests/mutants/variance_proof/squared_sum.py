"""Mistake: multiplies the per-term variances together, so Var(q·k) comes out as d_k²."""
# diagnosis: d_k got squared
# diagnosis: so the problem is in dot_variance()
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return d_k**2


def scaled_dot_variance():
    return dot_variance() / d_k
