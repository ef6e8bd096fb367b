"""Reference solution for variance_proof: why the scores are divided by √d_k."""

import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    """E[q_i k_i] = E[q_i] E[k_i] (independence)."""
    E_q, E_k = sympy.Integer(0), sympy.Integer(0)  # q_i, k_i ~ N(0, 1)
    return E_q * E_k


def product_variance():
    """Var(q_i k_i) = E[q_i² k_i²] − E[q_i k_i]² = E[q_i²] E[k_i²] − (E[q_i] E[k_i])²."""
    E_q2, E_k2 = sympy.Integer(1), sympy.Integer(1)  # E[x²] = Var(x) + E[x]² = 1 + 0
    return E_q2 * E_k2 - product_mean() ** 2


def dot_variance():
    """Var(q·k) = sum of d_k independent terms, each of variance Var(q_i k_i)."""
    return d_k * product_variance()


def scaled_dot_variance():
    """Var(q·k / √d_k) = Var(q·k) / (√d_k)²."""
    return dot_variance() / sympy.sqrt(d_k) ** 2
