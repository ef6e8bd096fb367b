"""A float turned into a fraction is not exact (issue 34): hand_scores and variance_proof tell it from
right exact forms, which keep their full value."""

import math
from fractions import Fraction

import pytest
import sympy as sp

from graders import hand_scores as hs
from graders import variance_proof as vp

X = 1 / math.sqrt(2)


@pytest.mark.parametrize("expr", [
    sp.Rational(X), sp.nsimplify(X, rational=True), sp.Rational(str(Fraction(X))), sp.exp(sp.Rational(X)),
    4 * sp.Rational(math.exp(X) / (1 + math.exp(X))),
])
def test_a_float_made_a_fraction_is_seen(expr):
    assert hs.float_born(expr) and hs.inexact(expr)
    assert vp.float_born(sp.sympify(expr))


@pytest.mark.parametrize("expr", [
    sp.Rational(1, 2), sp.Rational(0.5), sp.nsimplify(X, [sp.sqrt(2)]), sp.sqrt(sp.Rational(1, 2)), sp.Integer(0),
    sp.exp(sp.sqrt(2) / 2) / (1 + sp.exp(sp.sqrt(2) / 2)), sp.Rational(Fraction(3, 4)), sp.Rational(1, 1024),
    (1 + sp.tanh(sp.sqrt(2) / 4)) / 2,
])
def test_right_exact_forms_are_not(expr):
    assert not hs.float_born(expr) and not hs.inexact(expr)
    assert not vp.float_born(sp.sympify(expr))


def test_the_message_names_the_size_of_the_denominator_not_the_value():
    text = hs.from_float_text(sp.Rational(X), shown=False)
    assert "16 digits" in text and "sqrt" not in text
