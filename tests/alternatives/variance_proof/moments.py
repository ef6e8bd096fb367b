"""Correct: moments written out with SymPy Integers, the sum over coordinates as Sum(...).doit()."""
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)
i = sympy.Symbol("i", positive=True, integer=True)
E_q, E_k, E_q2, E_k2 = sympy.Integer(0), sympy.Integer(0), sympy.Integer(1), sympy.Integer(1)


def product_mean():
    return E_q * E_k


def product_variance():
    return E_q2 * E_k2 - (E_q * E_k) ** 2


def dot_variance():
    return sympy.Sum(product_variance(), (i, 1, d_k)).doit()


def scaled_dot_variance():
    c = 1 / sympy.sqrt(d_k)
    return c**2 * dot_variance()
