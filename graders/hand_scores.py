"""Grader for hand_scores: six exact values, and whether they hang together.

The public checks look only at the student's own answers (pairs of numbers,
weights summing to exactly 1, weights = softmax of their scores, output =
a₁v₁ + a₂v₂); the hidden checks (graders/hidden/hand_scores.py) compare each value
exactly with the reference and name the common mistake a wrong value matches.
"""

import cmath
from functools import lru_cache

import numpy as np
import sympy as sp

from .kit.checks import Fail, SympyText, check, expect_tuple
from .kit.exact import time_limit, TimeUp, compare, to_expr

FUNCS = ("scaled_scores", "attention_weights", "attention_output")
SUB = ("₁", "₂")
LETTER = {"scaled_scores": "s", "attention_weights": "a", "attention_output": "y"}

# Scores from known wrong ways of scaling q·k_j (q·k₁ = 1, q·k₂ = 0, d_k = 2).


# ------------------------------------------------------------------ helpers
def _pair(sub, func):
    """Call ``func`` and return its two values in a form compare() reads."""
    out = sub.call(func)
    if isinstance(out, SympyText) and out.cls == "Tuple":
        expr, _ = to_expr(out, {})
        if isinstance(expr, sp.Tuple) and len(expr) == 2:
            return tuple(sp.srepr(e) for e in expr)
    if "Matrix" in getattr(out, "cls", "") or "Matrix" in getattr(out, "reason", ""):
        raise Fail(f"{func}() returned a SymPy Matrix; return a tuple of two values, e.g. tuple(M)")
    if isinstance(out, np.ndarray) and out.shape == (2,):
        return tuple(out.tolist())
    return expect_tuple(f"{func}()", 2, out)


def _exprs(sub, func):
    """The two values of ``func`` as finite real SymPy numbers, or Fail."""
    values = _pair(sub, func)
    exprs = []
    for i, value in enumerate(values):
        name = f"{LETTER[func]}{SUB[i]} = {func}()[{i}]"
        expr, why = to_expr(value, {})
        if expr is None:
            raise Fail(f"{name}: {why}")
        if not expr.is_number:
            raise Fail(f"{name}: you gave {sp.sstr(expr)}, which contains a symbol; give a number")
        z = _num(expr)
        if z is None or abs(z.imag) > 1e-12:
            raise Fail(f"{name}: you gave {sp.sstr(expr)}, which does not evaluate to a finite real number")
        exprs.append(expr)
    return tuple(exprs)


@lru_cache(maxsize=4096)
def _num(expr):
    """``expr`` as a finite complex number, or None (also when evaluating takes over a second)."""
    with time_limit(1.0) as timed_out:
        try:
            z = complex(sp.sympify(expr).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError, TimeUp):
            return None
    return z if cmath.isfinite(z) and not timed_out() else None


def _close(a, b):
    """Numerical equality, loose when ``a`` holds floats (a hint, not a verdict)."""
    za, zb = _num(a), _num(b)
    if za is None or zb is None:
        return False
    tol = 1e-6 if sp.sympify(a).atoms(sp.Float) else 1e-12
    return abs(za - zb) <= tol * max(1.0, abs(zb))


def _hint(exprs, index, mistakes):
    """A known mistake matching the whole pair, else matching this one value."""
    for message, wrong in mistakes:
        if all(_close(e, w) for e, w in zip(exprs, wrong)):
            return message
    for message, wrong in mistakes:
        if _close(exprs[index], wrong[index]):
            return message
    return ""


def _show(exprs):
    return "(" + ", ".join(f"{_num(e).real:.5g}" for e in exprs) + ")"


def _softmax(s):
    e = [sp.exp(x) for x in s]
    return tuple(x / sum(e) for x in e)


# ------------------------------------------------------------------ public checks
@check("each function returns a pair of real numbers", 0.5, uses=FUNCS)
def returns_pairs(sub, ref):
    for func in FUNCS:
        _exprs(sub, func)


@check("the two weights add up to exactly 1", 0.5, uses=("attention_weights",))
def weights_sum_to_one(sub, ref):
    a = _exprs(sub, "attention_weights")
    total = a[0] + a[1]
    verdict = compare(sp.Integer(1), sp.srepr(total))
    if verdict.fraction >= 1:
        return
    if verdict.fraction > 0:
        raise Fail(f"your weights {_show(a)} add up to 1 only up to rounding: they are floats; "
                   f"give exact SymPy values (sympy.exp, sympy.sqrt) so the sum is exactly 1",
                   verdict.fraction, verdict.outcome)
    if verdict.outcome == "undecided":
        raise Fail(f"SymPy could not decide whether a₁ + a₂ = 1 for your weights {_show(a)}; "
                   f"it is left for a person to check", 0.0, "undecided")
    z = _num(total) or complex("nan")
    raise Fail(f"a₁ + a₂ should be exactly 1, but your weights {_show(a)} add up to {z.real:.6g}"
               + ("; softmax divides each exponential by their sum" if abs(z) > 1 + 1e-9 else ""))


@check("the weights are the softmax of your scores", 0.5, uses=("scaled_scores", "attention_weights"))
def weights_are_softmax_of_scores(sub, ref):
    s, a = _exprs(sub, "scaled_scores"), _exprs(sub, "attention_weights")
    if all(_close(x, y) for x, y in zip(a, _softmax(s))):
        return
    hint = _hint(a, 0, (
        ("they come from the unscaled dot products q·k_j, not from the scaled scores",
         _softmax((sp.Integer(1), sp.Integer(0)))),
        ("a₁ and a₂ are swapped", _softmax(s)[::-1]),
        ("the exponentials were not divided by their sum", tuple(sp.exp(x) for x in s)),
        ("the scores were normalised without taking exponentials first",
         tuple(x / sum(s) for x in s) if _num(sum(s)) else (sp.nan, sp.nan)),
    ))
    raise Fail(f"your weights {_show(a)} are not the softmax of your own scores {_show(s)}: "
               f"a_j = e^(s_j) / (e^(s₁) + e^(s₂))" + (f". It looks like {hint}" if hint else ""))


@check("the output is a₁v₁ + a₂v₂ for your weights", 0.5, uses=("attention_weights", "attention_output"))
def output_is_weighted_values(sub, ref):
    a, y = _exprs(sub, "attention_weights"), _exprs(sub, "attention_output")
    if _close(y[0], 4 * a[0]) and _close(y[1], 4 * a[1]):
        return
    hint = _hint(y, 0, (
        ("y₁ and y₂ are swapped", (4 * a[1], 4 * a[0])),
        ("a₁ was used for both coordinates", (4 * a[0], 4 * a[0])),
        ("a₂ was used for both coordinates", (4 * a[1], 4 * a[1])),
        ("the weights were not multiplied by the values", a),
    ))
    raise Fail(f"with your weights {_show(a)}, a₁v₁ + a₂v₂ (v₁ = (4, 0), v₂ = (0, 4)) is not your output "
               f"{_show(y)}" + (f". It looks like {hint}" if hint else ""))
