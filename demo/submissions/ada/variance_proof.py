"""variance_proof: Ada's answers."""
import sympy

d_k = sympy.Symbol("d_k")


def product_mean():
    return 0


def product_variance():
    return 1


def dot_variance():
    return 1 * d_k


def scaled_dot_variance():
    return sympy.simplify(dot_variance() / sympy.sqrt(d_k) ** 2)
