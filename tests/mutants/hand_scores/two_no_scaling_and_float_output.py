"""Mistakes, two at once: the dot products are not divided by √d_k (scores (1, 0)), and attention_output turns
its exact values into Python floats. Written blind, without reading the graders."""
# diagnosis: were not divided by √d_k
# diagnosis: an exact form is expected
# lesson: no √d_k or dividing by d_k
# lesson: floats where exact values are asked
import sympy


def scaled_scores() -> tuple:
    return (sympy.Integer(1), sympy.Integer(0))


def attention_weights() -> tuple:
    s1, s2 = scaled_scores()
    z = sympy.exp(s1) + sympy.exp(s2)
    return (sympy.exp(s1) / z, sympy.exp(s2) / z)


def attention_output() -> tuple:
    a1, a2 = attention_weights()
    return (float(4 * a1), float(4 * a2))
