"""Correct: computed with SymPy matrices, softmax(q Kᵀ / √d_k) V, returned as tuples."""
import sympy

q = sympy.Matrix([[1, 0]])
K = sympy.Matrix([[1, 0], [0, 1]])
V = sympy.Matrix([[4, 0], [0, 4]])
d_k = K.shape[1]


def scaled_scores():
    return tuple(q * K.T / sympy.sqrt(d_k))


def attention_weights():
    e = sympy.Matrix([scaled_scores()]).applyfunc(sympy.exp)
    return tuple(e / sum(e))


def attention_output():
    return tuple(sympy.Matrix([attention_weights()]) * V)
