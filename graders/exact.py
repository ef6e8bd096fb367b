"""Exact answers: a whitelisting parser and a time-bounded SymPy comparison.

A student's SymPy object reaches the parent as its ``srepr`` text; an answer
typed as a string ("1/sqrt(2)") is text too. Both go through ``parse``, which
walks Python's AST and builds SymPy objects itself from a short list of
allowed names and node types: nothing is ever eval'd. Symbols are matched to
the reference's symbols by name, so ``Symbol("d_k")`` without assumptions
counts as the reference's positive integer ``d_k``.
"""

from __future__ import annotations

import ast
import math
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from .wire import Rejected, SympyText

MAX_TEXT = 20_000
MAX_NODES = 2_000
MAX_INT_DIGITS = 60
MAX_EXPONENT = 1_000

_FUNCTIONS = {
    "Add": lambda *a: sp.Add(*a), "Mul": lambda *a: sp.Mul(*a), "Pow": lambda b, e: sp.Pow(b, e),
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "Abs": sp.Abs, "sin": sp.sin, "cos": sp.cos,
    "Integer": sp.Integer, "Rational": sp.Rational, "Float": sp.Float, "Tuple": lambda *a: sp.Tuple(*a),
    "Sum": sp.Sum, "Max": sp.Max, "Min": sp.Min,
}
_CONSTANTS = {
    "pi": sp.pi, "E": sp.E, "I": sp.I, "ImaginaryUnit": sp.I, "Half": sp.S.Half, "One": sp.S.One, "Zero": sp.S.Zero,
    "NegativeOne": sp.S.NegativeOne, "Exp1": sp.E, "Pi": sp.pi, "oo": sp.oo, "Infinity": sp.oo,
    "e": sp.E,
}
_SYMBOL_MAKERS = {"Symbol", "Dummy"}


class ParseError(ValueError):
    """The text is not an expression built from the allowed pieces."""


def parse(text: str, symbols: dict) -> sp.Expr:
    """Build a SymPy expression from ``text`` (srepr or plain maths) without eval.

    ``symbols`` maps a name to the reference's Symbol; any other symbol name is
    kept as a plain Symbol so that a wrong variable shows up as wrong, not as
    a crash.
    """
    if len(text) > MAX_TEXT:
        raise ParseError(f"the expression is {len(text)} characters long")
    try:
        tree = ast.parse(text.replace("^", "**").strip(), mode="eval")
    except SyntaxError:
        raise ParseError(f"{text[:80]!r} is not a mathematical expression") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ParseError("the expression is too large")
    return _Builder(symbols).build(tree.body)


class _Builder:
    def __init__(self, symbols):
        self.symbols = symbols

    def symbol(self, name):
        if not isinstance(name, str) or not name.isidentifier():
            raise ParseError(f"bad symbol name {name!r}")
        return self.symbols.get(name) or sp.Symbol(name)

    def build(self, node):
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            return self.symbol(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            x = self.build(node.operand)
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Tuple):
            return sp.Tuple(*[self.build(e) for e in node.elts])
        raise ParseError(f"{type(node).__name__} is not allowed in an answer")

    def constant(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ParseError(f"the constant {value!r} is not allowed")
        if isinstance(value, int):
            if len(str(abs(value))) > MAX_INT_DIGITS:
                raise ParseError("an integer in the answer is too large")
            return sp.Integer(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ParseError("the answer contains nan or inf")
            return sp.Float(value)
        return value  # strings only as Float('0.5', precision=53) or Symbol('x') arguments

    def binop(self, node):
        a, b = self.build(node.left), self.build(node.right)
        op = node.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.Pow):
            self.check_exponent(b)
            return a**b
        raise ParseError(f"the operator {type(op).__name__} is not allowed")

    @staticmethod
    def check_exponent(e):
        if isinstance(e, sp.Number) and abs(e) > MAX_EXPONENT:
            raise ParseError("an exponent in the answer is too large")

    def call(self, node):
        if not isinstance(node.func, ast.Name):
            raise ParseError("only plain function names are allowed")
        name = node.func.id
        if name in _SYMBOL_MAKERS:
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
                raise ParseError("Symbol takes one name")
            return self.symbol(node.args[0].value)  # assumptions are ignored: names match
        if name not in _FUNCTIONS:
            raise ParseError(f"{name}() is not supported in an answer; give a closed form")
        args = [self.build(a) for a in node.args]
        for kw in node.keywords:  # only Float(..., precision=53) carries keywords we accept
            if name != "Float" or kw.arg not in ("precision", "dps"):
                raise ParseError(f"{name}() with keyword {kw.arg!r} is not supported")
        if name == "Pow" and len(args) == 2:
            self.check_exponent(args[1])
        if name in ("Integer", "Rational") and not all(isinstance(a, (sp.Integer, int)) for a in args):
            raise ParseError(f"{name}() takes whole numbers")
        if name == "Float":
            if len(args) != 1 or not isinstance(args[0], (str, sp.Float, sp.Integer)):
                raise ParseError("bad Float")
            return sp.Float(args[0])
        if any(isinstance(a, str) for a in args):
            raise ParseError(f"{name}() does not take text")
        try:
            return _FUNCTIONS[name](*args)
        except (TypeError, ValueError) as exc:
            raise ParseError(f"{name}(...) could not be built: {exc}") from None


# ------------------------------------------------------------------ comparison
@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing one exact answer: fraction of credit and words."""

    fraction: float
    message: str
    outcome: str  # "passed", "failed", "partial", "undecided"


def to_expr(value, symbols):
    """A student's value as (SymPy expression or None, reason-if-None)."""
    if isinstance(value, Rejected):
        return None, f"you gave {value.reason}"
    if isinstance(value, bool) or value is None:
        return None, f"you gave {value!r}, not a number"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None, f"you gave {value!r}"
        return (sp.Integer(value) if isinstance(value, int) else sp.Float(value)), ""
    if isinstance(value, (SympyText, str)):
        try:
            return parse(value.text if isinstance(value, SympyText) else value, symbols), ""
        except ParseError as exc:
            return None, f"your answer could not be read: {exc}"
        except (RecursionError, MemoryError, OverflowError):
            return None, "your answer could not be read: the expression is too deep or too large"
    return None, f"you gave a {type(value).__name__}, not a number or SymPy expression"


def compare(expected: sp.Expr, value, *, symbols=None, probes=(1, 2, 3, 7, 64), seconds=5.0) -> Verdict:
    """Compare a student's exact answer with the reference ``expected`` (cached, see _compare)."""
    symbols = tuple(sorted((symbols or {s.name: s for s in expected.free_symbols}).items()))
    try:
        return _compare(expected, value, symbols, tuple(probes), seconds)
    except TypeError:  # an unhashable value (a list): compare without the cache
        return _compare.__wrapped__(expected, value, symbols, tuple(probes), seconds)


@lru_cache(maxsize=8192, typed=True)  # typed: True and 1 are different answers
def _compare(expected, value, symbols, probes, seconds) -> Verdict:
    """Compare a student's exact answer with the reference ``expected``.

    Full credit for an equal exact expression; half credit for a float that is
    numerically right (an exact form was asked); zero for a wrong value;
    "undecided" when SymPy cannot settle equality within ``seconds``.
    """
    symbols = dict(symbols)
    actual, why = to_expr(value, symbols)
    if actual is None:
        return Verdict(0.0, why, "failed")
    shown = _short(actual)
    extra = sorted(s.name for s in actual.free_symbols if s.name not in symbols)
    if extra:
        return Verdict(0.0, f"you gave {shown}, which uses {', '.join(extra)}; "
                            f"only {', '.join(sorted(symbols)) or 'numbers'} may appear", "failed")
    if expected.free_symbols and actual.is_number:
        names = ", ".join(sorted(s.name for s in expected.free_symbols))
        return Verdict(0.0, f"you gave the number {shown}; the answer must hold for every {names}, "
                            f"so it has to be an expression in {names}", "failed")
    with time_limit(seconds) as timed_out:
        try:
            numeric = _numerically_equal(expected, actual, probes)
        except TimeUp:
            numeric = None
    if timed_out():
        numeric = None
    if actual.atoms(sp.Float):
        if numeric:
            return Verdict(0.5, f"you gave {shown}: numerically right, but an exact form is expected "
                                f"(use sympy.sqrt, sympy.exp, sympy.Rational, not floats)", "partial")
        return Verdict(0.0, f"you gave {shown}, which is not right (and an exact form is expected)", "failed")
    if numeric is False:
        return Verdict(0.0, f"you gave {shown}, which is not right", "failed")
    decided = _equal_within(expected, actual, seconds)
    if decided is True:
        return Verdict(1.0, "", "passed")
    if decided is False:
        return Verdict(0.0, f"you gave {shown}, which is not right", "failed")
    return Verdict(0.0, f"you gave {shown}; SymPy could not decide whether it equals the answer "
                        f"within {seconds:g} s, so it is left for a person to check", "undecided")


def _short(expr, limit=120):
    text = sp.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _numerically_equal(expected, actual, probes):
    """True/False when numbers settle it at every probe point, None if they cannot."""
    syms = expected.free_symbols | actual.free_symbols
    points = [{s: sp.Integer(p) for s in syms} for p in probes] if syms else [{}]
    for point in points:
        try:
            e = complex(expected.xreplace(point).evalf(30))
            a = complex(actual.xreplace(point).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError):
            return None
        if not (math.isfinite(abs(e)) and math.isfinite(abs(a))):
            return None
        if abs(e - a) > 1e-9 * max(1.0, abs(e)):
            return False
    return True


def _equal_within(expected, actual, seconds):
    """True, False or None (undecided) for exact equality, bounded in time."""
    with time_limit(seconds) as timed_out:
        try:
            diff = sp.simplify(expected - actual)
            if diff == 0:
                return True
            result = expected.equals(actual)
        except TimeUp:
            return None
        except (TypeError, ValueError, RecursionError, ZeroDivisionError):
            return None
    if timed_out():
        return None
    return result


class TimeUp(Exception):
    """Raised inside a ``time_limit`` block when its time is up."""


@contextmanager
def time_limit(seconds):
    """Raise TimeUp inside the block after ``seconds`` (main thread only)."""
    fired = []
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield lambda: False
        return

    def on_alarm(signum, frame):
        fired.append(True)
        raise TimeUp

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield lambda: bool(fired)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
