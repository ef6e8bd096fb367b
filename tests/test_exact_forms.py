"""Every equal exact form counts, as the stubs promise: one test per form.

Each form below is an exact answer of hand_scores or variance_proof written
with one of the functions the parser accepts; compare() must give it full
credit, whether it arrives as a SymPy object (its srepr text, as from the
worker) or typed as a string. What the parser still refuses is named in the
stubs. And the one-way digests that hand_scores' public checks use must match
the reference solution, robustly.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
import sympy as sp

from graders import hand_scores as hs
from graders.grading.engine import ROOT, grade_file, reference
from graders.kit.exact import compare
from graders.kit.parse import ParseError, parse
from graders.sandbox.wire import SympyText

S = 1 / sp.sqrt(2)  # s₁ of hand_scores
A1, A2 = sp.exp(S) / (1 + sp.exp(S)), 1 / (1 + sp.exp(S))
D = sp.Symbol("d_k", positive=True, integer=True)
SYMBOLS = {"d_k": D}

# (form, the value it must equal, the form as text)
FORMS = {
    "tanh": (A1, "(1 + tanh(sqrt(2)/4))/2"),
    "sinh": (A1, "(cosh(1/sqrt(2)) + sinh(1/sqrt(2)))/(1 + cosh(1/sqrt(2)) + sinh(1/sqrt(2)))"),
    "cosh": (A1, "exp(sqrt(2)/4)/(2*cosh(sqrt(2)/4))"),
    "coth": (A1, "(1 + 1/coth(sqrt(2)/4))/2"),
    "sech": (A2, "exp(-sqrt(2)/4)*sech(sqrt(2)/4)/2"),
    "csch": (A1, "(1 + coth(1/sqrt(2)) - csch(1/sqrt(2)))/2"),
    "log": (A2, "exp(-log(1 + exp(1/sqrt(2))))"),
    "log with a base": (D, "d_k*log(8, 2)/3"),
    "Abs": (S, "Abs(-1/sqrt(2))"),
    "sign": (sp.Integer(1), "sign(d_k)"),
    "asinh": (S, "asinh(sinh(1/sqrt(2)))"),
    "acosh": (S, "acosh(cosh(1/sqrt(2)))"),
    "atanh": (S, "2*atanh(tanh(sqrt(2)/4))"),
    "root": (S, "1/root(2, 2)"),
    "cbrt": (S, "cbrt(2)**(3/2)/2"),
    "tan": (sp.Integer(1), "tan(pi/4)"),
    "cot": (sp.Integer(1), "cot(pi/4)"),
    "sec": (sp.Integer(1), "sec(0)"),
    "csc": (sp.Integer(1), "csc(pi/2)"),
    "sin and cos": (sp.Integer(1), "sin(d_k)**2 + cos(d_k)**2"),
    "asin": (sp.Integer(1), "2*asin(1)/pi"),
    "acos": (sp.Integer(0), "acos(1)"),
    "atan": (sp.Integer(1), "4*atan(1)/pi"),
    "acot": (sp.Integer(1), "4*acot(1)/pi"),
    "atan2": (sp.Integer(1), "4*atan2(1, 1)/pi"),
}
# Still refused, and named as such in the stubs of the exact-answer exercises.
REFUSED = ("factorial(3)", "gamma(3)", "binomial(4, 2)", "Integral(d_k, d_k)", "erf(1)", "floor(1.5)")


@pytest.mark.parametrize("name", FORMS)
def test_an_equal_form_gets_full_credit_as_text(name):
    expected, text = FORMS[name]
    verdict = compare(expected, text, symbols=SYMBOLS)
    assert (verdict.fraction, verdict.outcome) == (1.0, "passed"), verdict.message


@pytest.mark.parametrize("name", FORMS)
def test_an_equal_form_gets_full_credit_as_a_sympy_object(name):
    expected, text = FORMS[name]
    obj = sp.sympify(text, locals={"d_k": D}, evaluate=False)
    verdict = compare(expected, SympyText(sp.srepr(obj), type(obj).__name__), symbols=SYMBOLS)
    assert (verdict.fraction, verdict.outcome) == (1.0, "passed"), verdict.message


@pytest.mark.parametrize("name", FORMS)
def test_an_unequal_form_is_still_wrong(name):
    expected, text = FORMS[name]
    verdict = compare(expected + sp.Rational(1, 3), text, symbols=SYMBOLS)
    assert verdict.fraction == 0.0 and verdict.outcome == "failed"


def test_a_hand_scores_file_written_with_hyperbolic_functions_earns_full_marks(tmp_path):
    (tmp_path / "hand_scores.py").write_text(
        "import sympy\n\n"
        "def scaled_scores():\n    return (sympy.sqrt(2) * sympy.cosh(0) / 2, sympy.tanh(0))\n\n"
        "def attention_weights():\n    t = sympy.tanh(sympy.sqrt(2) / 4)\n    return ((1 + t) / 2, (1 - t) / 2)\n\n"
        "def attention_output():\n    t = sympy.tanh(sympy.sqrt(2) / 4)\n    return (2 + 2 * t, 2 - 2 * t)\n",
        encoding="utf-8")
    result = grade_file("hand_scores", tmp_path / "hand_scores.py")
    assert result.points == result.max_points, [(c.name, c.message) for c in result.checks if not c.passed]


@pytest.mark.parametrize("text", REFUSED)
def test_what_is_refused_is_named_in_the_stubs(text):
    with pytest.raises(ParseError):
        parse(text, SYMBOLS)
    name = text.split("(")[0]
    for slug in ("hand_scores", "variance_proof"):
        stub = (ROOT / "exercises" / f"{slug}.py").read_text(encoding="utf-8")
        assert name in stub, f"exercises/{slug}.py does not say that {name} is not accepted"


# ------------------------------------------------------------------ hand_scores' digests
def test_the_digests_are_those_of_the_reference_solution():
    ref = reference("hand_scores")
    for func in hs.FUNCS:
        for index, value in enumerate(getattr(ref, func)()):
            assert hs.digest(func, index, sp.sympify(value)) == hs.DIGESTS[func, index], (func, index)


def test_no_reference_value_lies_near_a_rounding_boundary():
    """A float that is right to 1e-13 must round like the exact value (10 decimals)."""
    ref = reference("hand_scores")
    for func in hs.FUNCS:
        for value in getattr(ref, func)():
            scaled = Decimal(str(sp.N(value, 40))) * Decimal(10) ** 10
            assert abs(scaled % 1 - Decimal("0.5")) > Decimal("0.01") or scaled == 0, (func, value)


def test_a_digest_tells_a_right_value_from_a_near_miss():
    assert hs.digest("scaled_scores", 0, sp.Float(0.7071067811865476)) == hs.DIGESTS["scaled_scores", 0]
    assert hs.digest("scaled_scores", 0, sp.Float(0.70710678)) != hs.DIGESTS["scaled_scores", 0]
    assert hs.digest("scaled_scores", 0, sp.Integer(1)) != hs.DIGESTS["scaled_scores", 0]
    assert hs.digest("scaled_scores", 1, sp.Integer(0)) == hs.digest("scaled_scores", 1, -sp.Float(0.0))


def test_the_digests_never_show_a_value():
    text = (ROOT / "graders" / "hand_scores.py").read_text(encoding="utf-8")
    ref = reference("hand_scores")
    for func in hs.FUNCS:
        for value in getattr(ref, func)():
            if not sp.sympify(value).is_Integer:  # 0 is in every text
                assert f"{float(sp.N(value)):.5f}" not in text and sp.sstr(value) not in text
