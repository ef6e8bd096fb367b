"""Mistake: forgets that the scaling changes the variance, returning Var(q·k) for the scaled one too."""
# diagnosis: the division by √d_k was left out
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
    return d_k
