"""Mistake: uses a₁ for both output coordinates (copy-paste), y = (4a₁, 4a₁)."""
# diagnosis: a₁ was used for both coordinates
import sympy


def scaled_scores():
    return (sympy.sqrt(2) / 2, sympy.Integer(0))


def attention_weights():
    e1, e2 = (sympy.exp(s) for s in scaled_scores())
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a1)
