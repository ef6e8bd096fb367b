"""Mistake: exponentiates the scores but forgets to divide by their sum."""
# diagnosis: the exponentials were not divided by their sum
import sympy


def scaled_scores():
    return (sympy.sqrt(2) / 2, sympy.Integer(0))


def attention_weights():
    return tuple(sympy.exp(s) for s in scaled_scores())


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
