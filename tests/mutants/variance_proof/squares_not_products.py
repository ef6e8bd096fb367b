"""Mistake: in Var(q·k) each term q_i k_i is treated as q_i², as if k were q: Var(q_i²) = E[q_i⁴] − E[q_i²]²
= 3 − 1 = 2, so Var(q·k) = 2·d_k, though product_variance() gives the right Var(q_i k_i) = 1. Nothing
may say the variances of q_i and k_i were added: the student's own Var(q_i k_i) says otherwise."""
# diagnosis: so the problem is in dot_variance()
# never: each term was given variance 2
# never: added in each term instead of multiplied
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return sympy.Integer(0)


def product_variance():
    E_q2, E_k2 = sympy.Integer(1), sympy.Integer(1)
    return E_q2 * E_k2 - product_mean() ** 2


def dot_variance():
    E_q4, E_q2 = sympy.Integer(3), sympy.Integer(1)  # q_i k_i taken as q_i²
    return d_k * (E_q4 - E_q2 ** 2)


def scaled_dot_variance():
    return dot_variance() / d_k
