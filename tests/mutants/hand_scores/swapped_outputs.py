"""Mistake: pairs each weight with the wrong value vector, so y comes out in the wrong order."""
# diagnosis: y₁ and y₂ are swapped
import sympy


def scaled_scores():
    return (sympy.sqrt(2) / 2, sympy.Integer(0))


def attention_weights():
    e1, e2 = (sympy.exp(s) for s in scaled_scores())
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output():
    a1, a2 = attention_weights()
    return (a2 * 4, a1 * 4)
