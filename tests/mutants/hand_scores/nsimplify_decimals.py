"""Mistake: computes the scores with NumPy, then makes them "exact" with sympy.nsimplify(x, rational=True),
which turns each float into a decimal fraction (707106781186547/1000000000000000) instead of finding
√2/2; the weights and the output built exactly from those scores are then exact functions of a wrong score."""
# diagnosis: what a float turned into a fraction
# lesson: floats where exact values are asked
import numpy as np
import sympy

q = np.array([1.0, 0.0])
K = np.array([[1.0, 0.0], [0.0, 1.0]])


def scaled_scores():
    s = q @ K.T / np.sqrt(K.shape[1])
    return tuple(sympy.nsimplify(x, rational=True) for x in s)


def attention_weights():
    e = [sympy.exp(s) for s in scaled_scores()]
    return (e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1]))


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
