"""hand_scores"""
import sympy


def attention_weights():
    w2 = 1 / (1 + sympy.exp(-4 * sympy.sqrt(2)))
    w1 = 1 / (1 + sympy.exp(4 * sympy.sqrt(2)))
    return (w1, w2)


def scaled_scores():
    return (-2 * sympy.sqrt(2), 2 * sympy.sqrt(2))


def attention_output():
    w = attention_weights()
    return (2 * w[0], 3 * w[1])
