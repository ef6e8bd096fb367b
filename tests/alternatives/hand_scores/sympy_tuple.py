"""Correct: returns sympy.Tuple objects; a₁ written symmetrically as e^(s/2) / (e^(s/2) + e^(−s/2)), a₂ = 1 − a₁."""
import sympy

s = 1 / sympy.sqrt(2)


def scaled_scores():
    return sympy.Tuple(s, sympy.S.Zero)


def attention_weights():
    a1 = sympy.exp(s / 2) / (sympy.exp(s / 2) + sympy.exp(-s / 2))
    return sympy.Tuple(a1, 1 - a1)


def attention_output():
    a1, a2 = attention_weights()
    return sympy.Tuple(4 * a1, 4 * a2)
