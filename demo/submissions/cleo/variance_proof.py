"""variance_proof: Cleo's answers."""
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
