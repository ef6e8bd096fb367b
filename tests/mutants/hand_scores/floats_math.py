"""Mistake: computes with math.sqrt and math.exp, so every answer is a float, not exact."""
# diagnosis: give exact SymPy values
# lesson: floats where exact values are asked
import math


def scaled_scores():
    return (1 / math.sqrt(2), 0.0)


def attention_weights():
    e1, e2 = (math.exp(s) for s in scaled_scores())
    return (e1 / (e1 + e2), e2 / (e1 + e2))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
