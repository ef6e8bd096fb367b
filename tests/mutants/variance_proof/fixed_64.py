"""Mistake: answers for the usual head size d_k = 64 instead of an expression in d_k."""
# diagnosis: the answer must hold for every d_k
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return sympy.Integer(64)


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(64) ** 2
