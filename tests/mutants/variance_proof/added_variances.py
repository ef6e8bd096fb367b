"""Mistake: adds the variances of q_i and k_i, Var(q_i k_i) = 1 + 1 = 2."""
# diagnosis: the variances of q_i and k_i
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1) + sympy.Integer(1)


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return dot_variance() / d_k
