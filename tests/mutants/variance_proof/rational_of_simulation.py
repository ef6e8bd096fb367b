"""Mistake: estimates the per-term moments by simulation and wraps them in sympy.Rational to make them
"exact": Rational(0.9987...) is the float's binary fraction (a 16-digit denominator), close to the right
value, with no float left in it, but not exact."""
# diagnosis: what a float turned into a fraction
# diagnosis: so the problem is in dot_variance()
# lesson: floats where exact values are asked
import numpy as np
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)

_rng = np.random.default_rng(0)
_qk = _rng.standard_normal(100_000) * _rng.standard_normal(100_000)


def product_mean():
    return sympy.Rational(float(_qk.mean()))


def product_variance():
    return sympy.Rational(float(_qk.var()))


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return dot_variance() / d_k
