"""Right, worked numerically with NumPy first (q @ K.T / np.sqrt(d_k)), then made exact with
sympy.nsimplify, told that sqrt(2) may appear; the weights and the output are then built exactly
from those scores with sympy.exp."""
# source: style the brief names (sympy.nsimplify results) and lesson 1's NumPy cells
# license: n/a
# adapted: n/a
import numpy as np
import sympy

q = np.array([1.0, 0.0])
K = np.array([[1.0, 0.0], [0.0, 1.0]])
V = np.array([[4, 0], [0, 4]])


def scaled_scores():
    s = q @ K.T / np.sqrt(K.shape[1])
    return tuple(sympy.nsimplify(x, [sympy.sqrt(2)]) for x in s)


def attention_weights():
    e = [sympy.exp(s) for s in scaled_scores()]
    total = e[0] + e[1]
    return (e[0] / total, e[1] / total)


def attention_output():
    a = attention_weights()
    return tuple(sum(a[j] * int(V[j, c]) for j in range(2)) for c in range(2))
