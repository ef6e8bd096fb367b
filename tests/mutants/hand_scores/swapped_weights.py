"""Mistake: writes the weights in the wrong order, (a₂, a₁)."""
# diagnosis: a₁ and a₂ are swapped
# diagnosis: so the problem is in your weights
import sympy


def scaled_scores():
    return (sympy.sqrt(2) / 2, sympy.Integer(0))


def attention_weights():
    e1, e2 = (sympy.exp(s) for s in scaled_scores())
    return (e2 / (e1 + e2), e1 / (e1 + e2))


def attention_output():
    a2, a1 = attention_weights()
    return (4 * a1, 4 * a2)
