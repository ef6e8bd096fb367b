"""Correct: per-coordinate moments computed with sympy.stats, then summed over d_k terms."""
import sympy
from sympy.stats import E, Normal, variance

d_k = sympy.Symbol("d_k", positive=True, integer=True)
q_i, k_i = Normal("q_i", 0, 1), Normal("k_i", 0, 1)


def product_mean():
    return E(q_i * k_i)


def product_variance():
    return variance(q_i * k_i)


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return (1 / sympy.sqrt(d_k)) ** 2 * dot_variance()
