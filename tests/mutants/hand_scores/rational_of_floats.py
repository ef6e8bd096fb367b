"""Mistake: works the values out with floats (math.sqrt, math.exp) and wraps each in sympy.Rational,
believing that makes it exact. Rational(0.7071067811865476) is the float's binary fraction,
1592262918131443/2251799813685248, numerically right to 16 digits but not 1/√2: no value is exact."""
# diagnosis: what a float turned into a fraction
# lesson: floats where exact values are asked
import math

import sympy


def scaled_scores():
    return (sympy.Rational(1 / math.sqrt(2)), sympy.Rational(0.0))


def attention_weights():
    e1, e2 = math.exp(1 / math.sqrt(2)), math.exp(0.0)
    return (sympy.Rational(e1 / (e1 + e2)), sympy.Rational(e2 / (e1 + e2)))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
