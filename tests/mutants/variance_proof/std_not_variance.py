"""Mistake: gives the standard deviation √d_k of q·k where its variance is asked."""
# diagnosis: standard deviation
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return 0


def product_variance():
    return 1


def dot_variance():
    return sympy.sqrt(d_k)


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(d_k)
