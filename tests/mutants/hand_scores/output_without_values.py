"""Mistake: attention_output leaves out the values and returns the weights themselves, (a₁, a₂) instead of
(4a₁, 4a₂). Written blind, without reading the graders."""
# diagnosis: the weights were not multiplied by the values
import sympy


def scaled_scores() -> tuple:
    return (sympy.sqrt(2) / 2, sympy.Integer(0))


def attention_weights() -> tuple:
    e1, e2 = (sympy.exp(s) for s in scaled_scores())
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output() -> tuple:
    a1, a2 = attention_weights()
    v1, v2 = (4, 0), (0, 4)
    # y = a1 v1 + a2 v2 ... (forgot to multiply by the values)
    return (a1, a2)
