"""hand_scores: Ada's answers."""
from sympy import Rational, exp, sqrt


def scaled_scores():
    return (sqrt(2) * Rational(1, 2), 0)


def attention_weights():
    s = sqrt(2) / 2
    return (1 / (1 + exp(-s)), exp(-s) / (1 + exp(-s)))


def attention_output():
    s = sqrt(2) / 2
    return [4 / (1 + exp(-s)), 4 - 4 / (1 + exp(-s))]
