"""Mistake: forgets to divide the dot products by √d_k."""
# diagnosis: were not divided by √d_k
# lesson: no √d_k or dividing by d_k
import sympy


def scaled_scores():
    return (sympy.Integer(1), sympy.Integer(0))


def attention_weights():
    s1, s2 = scaled_scores()
    return (sympy.exp(s1) / (sympy.exp(s1) + sympy.exp(s2)), sympy.exp(s2) / (sympy.exp(s1) + sympy.exp(s2)))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
