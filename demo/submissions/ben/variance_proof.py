"""variance_proof: Ben's answers."""
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
