"""Mistake: takes E[q_i k_i] to be E[q_i²] = 1, as if q_i and k_i were the same variable."""
# diagnosis: instead of E[q_i] E[k_i]
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(1)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return d_k


def scaled_dot_variance():
    return sympy.Integer(1)
