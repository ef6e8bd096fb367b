"""Mistake: dot_variance answers with a symbol of its own, n, instead of the module's d_k. Written blind,
without reading the graders."""
# diagnosis: only d_k may appear
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


n = sympy.Symbol("n", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return n


def scaled_dot_variance():
    return sympy.Integer(1)
