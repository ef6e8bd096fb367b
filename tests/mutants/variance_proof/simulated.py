"""Mistake: estimates the per-term moments by simulation, so the answers are (slightly wrong) floats."""
# diagnosis: an exact form is expected
# diagnosis: so the problem is in dot_variance()
# lesson: floats where exact values are asked
import numpy as np
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)

_rng = np.random.default_rng(0)
_qk = _rng.standard_normal(20_000) * _rng.standard_normal(20_000)


def product_mean():
    return float(_qk.mean())


def product_variance():
    return float(_qk.var())


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return product_variance()
