"""Mistake: divides the dot products by d_k instead of √d_k."""
# diagnosis: divided by d_k instead of √d_k
# lesson: no √d_k or dividing by d_k
import sympy

d_k = 2


def scaled_scores():
    return (sympy.Rational(1, d_k), sympy.Integer(0))


def attention_weights():
    e1, e2 = (sympy.exp(s) for s in scaled_scores())
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
