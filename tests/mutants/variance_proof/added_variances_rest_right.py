"""Mistake: product_variance adds the variances, Var(q_i) + Var(k_i) = 2; dot_variance and scaled_dot_variance
are written as d_k and 1, so only product_variance is wrong. Written blind, without reading the graders."""
# diagnosis: the variances of q_i and k_i were added
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1) + sympy.Integer(1)  # Var(q_i) + Var(k_i)


def dot_variance():
    return d_k


def scaled_dot_variance():
    return sympy.Integer(1)
