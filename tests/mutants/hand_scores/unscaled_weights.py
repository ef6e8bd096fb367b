"""Mistake: scales the scores correctly but takes the softmax of the raw dot products."""
# diagnosis: they come from the unscaled dot products
import sympy


def scaled_scores():
    return (1 / sympy.sqrt(2), sympy.Integer(0))


def attention_weights():
    raw = (1, 0)  # q·k1, q·k2
    e1, e2 = (sympy.exp(x) for x in raw)
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
