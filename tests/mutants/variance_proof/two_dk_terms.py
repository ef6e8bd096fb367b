"""Mistake: counts the 2·d_k random entries as the terms of the sum, Var(q·k) = 2·d_k · Var(q_i k_i),
though q·k has d_k terms q_i k_i. Var(q_i k_i) = 1 is right, so nothing may blame the variance of one
term (a variance of 2 per term); the scaling step, Var(q·k) / d_k, is right too."""
# diagnosis: so the problem is in dot_variance()
# never: each term was given variance 2
# never: added in each term instead of multiplied
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    return sympy.Integer(1)


def dot_variance():
    return 2 * d_k * product_variance()  # q and k hold 2·d_k entries


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(d_k) ** 2
