"""Mistake: scales by d_k instead of √d_k, so the scaled variance is d_k / d_k² = 1/d_k."""
# diagnosis: divided by d_k instead of √d_k
# lesson: no √d_k or dividing by d_k
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return d_k


def scaled_dot_variance():
    return dot_variance() / d_k**2
