"""Mistake: every answer is written with float literals (0.0, 1.0, 1.0*d_k, 1.0): numerically right, but not
exact. Written blind, without reading the graders."""
# diagnosis: an exact form is expected
# lesson: floats where exact values are asked
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return 0.0


def product_variance():
    return 1.0


def dot_variance():
    return 1.0 * d_k


def scaled_dot_variance():
    return 1.0
