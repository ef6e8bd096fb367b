"""Exact answers: the whitelisting parser never evaluates code, and equal
forms compare equal while wrong ones, numbers and floats are told apart."""

import time

import sympy as sp
import pytest

from graders.kit import exact
from graders.kit.exact import ParseError, compare, parse, to_expr
from graders.sandbox.wire import Rejected, SympyText

D_K = sp.Symbol("d_k", positive=True, integer=True)
A1 = sp.exp(1 / sp.sqrt(2)) / (1 + sp.exp(1 / sp.sqrt(2)))


def srepr(x):
    return SympyText(sp.srepr(x), type(x).__name__)


@pytest.mark.parametrize("text", [
    "__import__('os').system('touch /tmp/pwned')",
    "open('/etc/passwd').read()",
    "(lambda: 1)()",
    "[x for x in ()]",
    "sp.__class__",
    "Integer(1).__class__",
    "Symbol(*['x'])",
    "exec('1')",
    "Function('f')(1)",
    "('__import__(\"os\").system(\"touch /tmp/pwned\")',)",  # SymPy's Tuple would sympify (eval) it
    "Sum('x', (Symbol('i'), 1, 2))",
    "Float('1' * 10**9)",  # would repeat the text a billion times
    "-'a'",
])
def test_code_is_never_run(text):
    with pytest.raises(ParseError):
        parse(text, {})


def test_huge_powers_and_integers_are_refused_before_sympy_sees_them():
    for text in ("10**100000", "Pow(Integer(2), Integer(10**9))", "9" * 100):
        with pytest.raises(ParseError):
            parse(text, {})


@pytest.mark.parametrize("text, words", [
    ("((10**1000)**1000)**1000", "more than 1024 bits"),
    ("Pow(Pow(Integer(10), Integer(300)), Integer(4))", "more than 1024 bits"),
    ("((2*d_k)**600)**2", "more than 1024 bits"),
    ("Rational(10**59, 3)**17", "more than 1024 bits"),
    ("Mul(" + ", ".join(["Integer(10**50)"] * 30) + ")", "more than 1024 bits"),
    ("Float('1e1000000000')", "Float() takes a decimal number"),
    ("Float('1e1001')", "exponent beyond"),
    ("Float('" + "1" * 101 + "')", "more than 100 digits"),
    ("Float('nan')", "Float() takes a decimal number"),
    ("-" * 150 + "1", "nested too deeply"),
    ("Add(" * 101 + "1" + ")" * 101, "nested too deeply"),
    ("-" * 19_000 + "1", "nested too deeply"),  # more than Python's own parser can take
    ("Add(" + ", ".join(["1"] * 2_000) + ")", "too large"),
])
def test_answers_that_would_be_costly_to_build_are_refused_from_their_text(text, words):
    with pytest.raises(ParseError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse(text, {"d_k": D_K})


@pytest.mark.parametrize("text, value", [
    ("10**300 + 1", 10**300 + 1),
    ("Rational(1, 3)**600", sp.Rational(1, 3**600)),
    ("Float('2.5e-3', precision=53)", sp.Float("2.5e-3")),
    ("Float('1e1000')", sp.Float("1e1000")),
])
def test_large_but_bounded_numbers_are_still_read(text, value):
    assert parse(text, {}) == value


def test_symbols_match_the_reference_by_name():
    assert parse("Symbol('d_k')", {"d_k": D_K}) is D_K
    assert parse("d_k**2", {"d_k": D_K}) == D_K**2


@pytest.mark.parametrize("answer", [
    srepr(1 / sp.sqrt(2)), srepr(sp.sqrt(2) / 2), "sqrt(2)/2", "2**(-1/2)", "1/sqrt(2)",
])
def test_equal_forms_get_full_credit(answer):
    assert compare(1 / sp.sqrt(2), answer).fraction == 1.0


def test_rewritten_softmax_weight_is_equal():
    assert compare(A1, srepr(1 / (1 + sp.exp(-1 / sp.sqrt(2))))).outcome == "passed"


def test_a_float_gets_half_credit_and_is_told_why():
    v = compare(A1, float(A1.evalf()))
    assert v.fraction == 0.5 and "exact form is expected" in v.message


def test_a_wrong_value_gets_nothing_and_the_answer_is_not_revealed():
    v = compare(A1, "1/2")
    assert v.fraction == 0 and v.outcome == "failed"
    assert "exp" not in v.message  # the message shows the student's value, never the reference


def test_a_number_where_an_expression_in_d_k_is_asked():
    v = compare(D_K, 64)
    assert v.fraction == 0 and "every d_k" in v.message


def test_symbol_without_assumptions_is_accepted():
    assert compare(D_K, srepr(sp.Symbol("d_k"))).fraction == 1.0
    assert compare(D_K, srepr(sp.Sum(1, (sp.Symbol("i"), 1, sp.Symbol("d_k"))))).fraction == 1.0


def test_foreign_symbols_and_unusable_values_fail_plainly():
    assert "uses x" in compare(D_K, "x").message
    assert compare(D_K, Rejected("a value of type builtins.dict")).fraction == 0
    assert compare(D_K, None).fraction == 0
    assert compare(D_K, True).fraction == 0


def test_an_undecidable_comparison_is_reported_as_undecided(monkeypatch):
    # make numeric probing inconclusive and simplification "time out"
    monkeypatch.setattr(exact, "_numerically_equal", lambda *a: None)

    def too_slow(expected, actual, seconds):
        return None

    monkeypatch.setattr(exact, "_equal_within", too_slow)
    monkeypatch.setattr(exact.bounded, "_inside", True)  # in this process, where the patches are
    v = compare(D_K, "d_k + 0*exp(d_k)")
    assert v.outcome == "undecided" and v.fraction == 0 and "person" in v.message


def test_the_time_bound_interrupts_a_slow_simplification():
    with exact.time_limit(0.05) as timed_out:
        with pytest.raises(exact.TimeUp):
            while True:
                pass
    assert timed_out()


ANSWERS = [srepr(1 / sp.sqrt(2)), "sqrt(2)/2", "1/2", srepr(sp.Float(0.7071067811865476)), "x",
           srepr(sp.Sum(1, (sp.Symbol("i"), 1, sp.Symbol("d_k")))), "d_k**2", "Function('f')(1)", 64, 0.5, True]


@pytest.mark.parametrize("expected", [1 / sp.sqrt(2), D_K])
def test_a_comparison_made_in_the_bounded_process_is_the_one_made_here(expected):
    symbols = tuple(sorted({s.name: s for s in expected.free_symbols}.items()))
    for answer in ANSWERS:
        here = exact._compare(expected, answer, symbols, exact.PROBES, 5.0)
        assert compare(expected, answer) == here == compare(expected, answer)  # live, remembered


@pytest.mark.parametrize("text, words", [
    ("((10**1000)**1000)**1000", "more than 1024 bits"),
    ("Float('1e1000000000')", "Float() takes a decimal number"),
    ("(" * 300 + "1" + ")" * 300, "nested too deeply"),
])
def test_a_costly_answer_is_refused_at_once_and_the_message_says_why(text, words):
    start = time.monotonic()
    for answer in (text, SympyText(text, "Pow")):
        v = compare(A1, answer)
        assert v.fraction == 0 and v.outcome == "failed" and words in v.message
        assert to_expr(answer, {})[0] is None and words in to_expr(answer, {})[1]
    assert time.monotonic() - start < 5


def spin(*args):
    return sum(range(10**15))  # in C: no signal stops it; the process is killed


def test_a_comparison_that_would_not_end_is_stopped_and_left_for_a_person(monkeypatch):
    monkeypatch.setattr(exact, "_compare_job", spin)
    monkeypatch.setattr(exact, "READ_SECONDS", 0.2)
    monkeypatch.setattr(exact.bounded, "_helper", None)  # a helper that has the patches
    start = time.monotonic()
    v = compare(A1, "exp(1)/(1 + exp(1)) + 0", seconds=0.2)
    assert v.fraction == 0 and v.outcome == "undecided"
    assert "could not be compared: reading and evaluating it took more than 0.6 s" in v.message
    assert "left for a person" in v.message
    assert time.monotonic() - start < 30
