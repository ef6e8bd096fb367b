"""hand_scores: Gus worked from the numbers in the exercise's text, not from his own."""
import sympy

s = 1 / sympy.sqrt(2)


def scaled_scores():
    return (s, sympy.Integer(0))


def attention_weights():
    return (sympy.exp(s) / (sympy.exp(s) + 1), 1 / (sympy.exp(s) + 1))


def attention_output():
    a = attention_weights()
    return (4 * a[0], 4 * a[1])
