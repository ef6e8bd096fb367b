"""Mistake: attention_weights returns e^(s_j) without dividing by their sum; attention_output normalises them
itself, so the output is right and only the weights are wrong. Written blind, without reading the graders."""
# diagnosis: the exponentials were not divided by their sum
# diagnosis: so the problem is in your weights
import sympy


def scaled_scores() -> tuple:
    return (1 / sympy.sqrt(2), sympy.Integer(0))


def attention_weights() -> tuple:
    return tuple(sympy.exp(s) for s in scaled_scores())


def attention_output() -> tuple:
    a1, a2 = attention_weights()
    a1n, a2n = a1 / (a1 + a2), a2 / (a1 + a2)
    return (4 * a1n, 4 * a2n)
