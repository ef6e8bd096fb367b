"""Exact answers: a time-bounded SymPy comparison with the reference's value.

A student's answer is first rebuilt by the whitelisting parser of parse.py
(nothing is ever eval'd), then compared: numerically at a few probe points,
then exactly, each within a time bound.
"""

from __future__ import annotations

import math
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp
from sympy.functions.elementary.hyperbolic import HyperbolicFunction

from ..sandbox.wire import Rejected, SympyText
from .parse import ParseError, parse


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
            diff = expected - actual
            # tanh, cosh and the like: as exponentials SymPy settles such an equality in a fraction of a second
            if diff.has(HyperbolicFunction) and sp.simplify(diff.rewrite(sp.exp)) == 0:
                return True
            diff = sp.simplify(diff)
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
