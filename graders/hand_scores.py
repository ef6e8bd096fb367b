"""Grader for hand_scores: six exact values, and whether they hang together.

The public checks look at the student's own answers (pairs of numbers,
weights summing to exactly 1, weights = softmax of their scores, output =
a₁v₁ + a₂v₂) and confirm each value through a one-way digest: the exercise's
text fixes every value, so the digest of its value rounded to 10 decimals is
stored here, never the value itself (a float that is numerically right gets
half). The hidden checks (graders/hidden/hand_scores.py) compare each value
exactly and name the common mistake a wrong pair matches.

A course with variants (kit/variants.py) gives each student other small numbers:
``numbers()`` are those of the variant being graded, and graders/variants/hand_scores.txt
holds the digests of every variant's six values (tests/test_variants.py makes them from
SymPy's exact answers and checks them).
"""

import cmath
import hashlib
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .kit import (Domain, Mistake, Outcome, SympyText, TimeUp, advice, check, compare, expect_tuple, fail, float_born,
                  module, time_limit, to_expr, current_variant, pick_variant, VariantDigests, VARIANT_COUNT)

# What the stub promises (kit/domain.py): its functions take no arguments; no check narrows it.
DOMAIN = Domain()

sp = module("sympy")  # imported at first use (kit/lazy.py)
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
TUPLE_OF_MATRIX = advice("return a tuple of two values, e.g. tuple(M)")
OUTPUT_RIGHT = advice("Your output is right, so the problem is in your weights.")

FUNCS = ("scaled_scores", "attention_weights", "attention_output")
SUB = ("₁", "₂")
LETTER = {"scaled_scores": "s", "attention_weights": "a", "attention_output": "y"}
# sha256 of "hand_scores <func>[<index>] = <the value rounded to 10 decimals>"; tests/test_exact_forms.py
# checks them against the reference solution.
DIGESTS = {
    ("scaled_scores", 0): "f007015cea6ca36908abd0a3", ("scaled_scores", 1): "d380f3b434991fa2fe5c68f5",
    ("attention_weights", 0): "1b88c1a14205a5699ec3c53a", ("attention_weights", 1): "e212f176afef552e0988e55c",
    ("attention_output", 0): "f2b92a8543d6a47d76752ea5", ("attention_output", 1): "311361c446cae286d963ca32",
}


# ------------------------------------------------------------------ the numbers
class Numbers(NamedTuple):
    q: tuple
    k1: tuple
    k2: tuple
    v1: tuple
    v2: tuple

    @property
    def dots(self) -> tuple:
        """(q·k₁, q·k₂)"""
        return tuple(sum(a * b for a, b in zip(self.q, k)) for k in (self.k1, self.k2))

    @property
    def scales(self) -> tuple:
        """(m₁, m₂): v₁ = (m₁, 0), v₂ = (0, m₂), so y = (m₁ a₁, m₂ a₂)."""
        return self.v1[0], self.v2[1]

    def text(self) -> str:
        return (f"q = {self.q}, k₁ = {self.k1}, k₂ = {self.k2}, v₁ = {self.v1}, v₂ = {self.v2} "
                f"and d_k = 2")


SEED = Numbers((1, 0), (1, 0), (0, 1), (4, 0), (0, 4))


def _rank(text: str) -> int:
    return int.from_bytes(hashlib.sha256(f"hand_scores {text}".encode()).digest()[:4], "big")


@lru_cache(maxsize=None)
def _candidates() -> tuple:
    """(q, k₁, k₂) with entries in -2..2, one for each pair of distinct dot products of size <= 4 (the
    seed's aside): the first q in an order digests fix that gives the pair, and keys a digest picks."""
    vecs = [(a, b) for a in range(-2, 3) for b in range(-2, 3) if (a, b) != (0, 0)]
    found = {}
    for q in sorted(vecs, key=lambda v: _rank(f"q {v}")):
        by_dot = {}
        for k in vecs:
            by_dot.setdefault(q[0] * k[0] + q[1] * k[1], []).append(k)
        for d1, ks1 in by_dot.items():
            for d2, ks2 in by_dot.items():
                if d1 != d2 and abs(d1) <= 4 and abs(d2) <= 4 and (d1, d2) != SEED.dots and (d1, d2) not in found:
                    r = _rank(f"{(d1, d2)}")
                    found[d1, d2] = (q, ks1[r % len(ks1)], ks2[(r >> 8) % len(ks2)])
    return tuple(sorted(found.values()))


def numbers(variant: int | None = None) -> Numbers:
    """The numbers of ``variant`` (by default the one being graded, kit/variants.py): the seed's
    for variant 0, else small integers with d_k = 2 and values (m₁, 0) and (0, m₂), 2 <= m <= 5."""
    return _numbers(current_variant() if variant is None else variant)


@lru_cache(maxsize=None)
def _numbers(variant: int) -> Numbers:
    if variant == 0:
        return SEED
    chosen = pick_variant("hand_scores", variant, _candidates())
    m = hashlib.sha256(f"hand_scores values {variant}".encode()).digest()
    return Numbers(*chosen, (2 + m[0] % 4, 0), (0, 2 + m[1] % 4))


@lru_cache(maxsize=None)
def _variant_digests():
    """Variants 1..64: the first 5 bytes of the same digests (with "v<n> " after "hand_scores "),
    s₁ s₂ a₁ a₂ y₁ y₂, shipped in graders/variants/hand_scores.txt."""
    return VariantDigests.shipped("hand_scores", width=6)


def expected_digest(func: str, index: int, variant: int | None = None) -> str:
    """The shipped digest of value ``index`` of ``func`` for ``variant`` (default: the current one)."""
    variant = current_variant() if variant is None else variant
    if variant == 0:
        return DIGESTS[func, index]
    return _variant_digests().get(variant, 2 * FUNCS.index(func) + index)


# ------------------------------------------------------------------ helpers
def answer_pair(sub, func):
    """Call ``func`` and return its two values in a form compare() reads."""
    out = sub.call(func)
    if isinstance(out, SympyText) and out.cls == "Tuple":
        expr, _ = to_expr(out, {})
        if isinstance(expr, sp.Tuple) and len(expr) == 2:
            return tuple(sp.srepr(e) for e in expr)
    if "Matrix" in getattr(out, "cls", "") or "Matrix" in getattr(out, "reason", ""):
        fail(f"{func}() returned a SymPy Matrix; {TUPLE_OF_MATRIX}")
    if isinstance(out, np.ndarray) and out.shape == (2,):
        return tuple(out.tolist())
    return expect_tuple(f"{func}()", 2, out)


def _exprs(sub, func):
    """The two values of ``func`` as finite real SymPy numbers, or Fail."""
    values = answer_pair(sub, func)
    exprs = []
    for i, value in enumerate(values):
        name = f"{LETTER[func]}{SUB[i]} = {func}()[{i}]"
        expr, why = to_expr(value, {})
        if expr is None:
            fail(f"{name}: {why}")
        if not expr.is_number:
            fail(f"{name}: you gave {sp.sstr(expr)}, which contains a symbol; give a number")
        z = _num(expr)
        if z is None or abs(z.imag) > 1e-12:
            fail(f"{name}: you gave {sp.sstr(expr)}, which does not evaluate to a finite real number")
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


def close_to(a, b):
    """Numerical equality, loose when ``a`` holds floats (a hint, not a verdict)."""
    za, zb = _num(a), _num(b)
    if za is None or zb is None:
        return False
    tol = 1e-6 if sp.sympify(a).atoms(sp.Float) else 1e-12
    return abs(za - zb) <= tol * max(1.0, abs(zb))


def pair_hint(exprs, mistakes):
    """" It looks like ..." for the one known mistake that gives the student's whole pair, else "".
    ``mistakes`` is a sequence of (Mistake, the pair that mistake gives)."""
    found = [m for m, wrong in mistakes if all(close_to(e, w) for e, w in zip(exprs, wrong))]
    return f" {found[0].hint}" if len({m.says for m in found}) == 1 else ""


def digest(func, index, expr, variant: int | None = None):
    """The one-way digest of ``expr``'s value rounded to 10 decimals for ``variant`` (default: the
    current one), as ``expected_digest`` gives it, or None if it has none."""
    variant = current_variant() if variant is None else variant
    text = _rounded(expr)
    if text is None:
        return None
    which = f"v{variant} " if variant else ""
    full = hashlib.sha256(f"hand_scores {which}{func}[{index}] = {text}".encode()).hexdigest()
    return full[:24] if variant == 0 else full[:10]


_ROUNDED: dict = {}  # expr -> its rounded text, for the values that have one (a time-out is never kept)


def _rounded(expr):
    """``expr``'s value rounded to 10 decimals, as text, or None if it has none (or takes over a second)."""
    if expr in _ROUNDED:
        return _ROUNDED[expr]
    with time_limit(1.0) as timed_out:
        try:
            value = Decimal(str(sp.re(sp.N(expr, 40))))
            text = format(value.quantize(Decimal("1e-10"), rounding=ROUND_HALF_EVEN), "f")
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError, InvalidOperation, TimeUp):
            return None
    if timed_out():
        return None
    text = "0.0000000000" if text == "-0.0000000000" else text
    if len(_ROUNDED) < 4096:
        _ROUNDED[expr] = text
    return text


def variants_with(func, index, expr) -> list:
    """The variants (0, the seed, included) whose value ``index`` of ``func`` is ``expr``'s, by their digests."""
    return [v for v in range(VARIANT_COUNT + 1) if digest(func, index, expr, v) == expected_digest(func, index, v)]


def inexact(expr) -> bool:
    """A float, or a fraction made from one: numerically right at best, never exact."""
    return bool(sp.sympify(expr).atoms(sp.Float)) or bool(float_born(expr))


FROM_FLOAT = ("a fraction with a denominator of {digits} digits is what a float turned into a fraction "
              "(sympy.Rational(0.7071...), nsimplify) gives, not an exact value")


def from_float_text(expr, shown=True) -> str:
    """Why ``expr``, which holds no float, is still not exact: its float-born fraction (``shown``), shortened."""
    found = float_born(expr)[0]
    why = FROM_FLOAT.format(digits=len(found.split("/")[1]))
    return f"{found if len(found) <= 40 else found[:37] + '...'}: {why}" if shown else why


def _show(exprs):
    return "(" + ", ".join(f"{_num(e).real:.5g}" for e in exprs) + ")"


def exact_softmax(s):
    e = [sp.exp(x) for x in s]
    return tuple(x / sum(e) for x in e)


UNSCALED_WEIGHTS = Mistake("they come from the unscaled dot products q·k_j, not from the scaled scores", None)
SWAPPED_WEIGHTS = Mistake("a₁ and a₂ are swapped", None)
NOT_DIVIDED = Mistake("the exponentials were not divided by their sum", None)
NO_EXP = Mistake("the scores were normalised without taking exponentials first", None)
# Observed on the student's own scores, never blamed on how they were scaled: the softmax of 2·s_j is what a
# tanh form without the half gives, (1 + tanh(s₁ − s₂))/2, or e^(2 s_j) in place of e^(s_j).
DOUBLED = Mistake("your weights are the softmax of twice your scores, 2·s_j in place of s_j", None)
DOUBLED_TANH = Mistake("your weights are the softmax of twice your scores, 2·s_j in place of s_j: as a tanh, "
                       "a two-way softmax is a₁ = (1 + tanh((s₁ − s₂)/2))/2, with half the difference", None)
SWAPPED_OUTPUT = Mistake("y₁ and y₂ are swapped", None)
FIRST_TWICE = Mistake("a₁ was used for both coordinates", None)
SECOND_TWICE = Mistake("a₂ was used for both coordinates", None)
NO_VALUES = Mistake("the weights were not multiplied by the values", None)


def doubled(weights) -> Mistake:
    """The mistake "the softmax of twice the scores", told with the tanh form where the weights hold a tanh."""
    return DOUBLED_TANH if any(sp.sympify(w).has(sp.tanh) for w in weights) else DOUBLED


@lru_cache(maxsize=None)
def score_mistakes(dots=SEED.dots):
    """Scores from known wrong ways of scaling q·k_j (``dots``, d_k = 2); a function, so that
    SymPy is imported only by a check that uses them."""
    d = tuple(sp.Integer(x) for x in dots)
    return ((SCORE_MISTAKES[0], d), (SCORE_MISTAKES[1], tuple(x / 2 for x in d)),
            (SCORE_MISTAKES[2], tuple(x * sp.sqrt(2) for x in d)))


# The known wrong ways of scaling q·k_j, in score_mistakes' order: made without SymPy (the hidden
# checks name weights after them when this module loads).
SCORE_MISTAKES = (Mistake("the dot products q·k_j were not divided by √d_k", None),
                  Mistake("the dot products were divided by d_k instead of √d_k", None),
                  Mistake("the dot products were multiplied by √d_k instead of divided by it", None))


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
        fail(f"your weights {_show(a)} add up to 1 only up to rounding: they are floats; "
             f"give exact SymPy values (sympy.exp, sympy.sqrt) so the sum is exactly 1",
             verdict.fraction, verdict.outcome)
    if verdict.outcome == Outcome.UNDECIDED:
        fail(f"SymPy could not decide whether a₁ + a₂ = 1 for your weights {_show(a)}; "
             f"it is left for a person to check", 0.0, Outcome.UNDECIDED)
    z = _num(total) or complex("nan")
    fail(f"a₁ + a₂ should be exactly 1, but your weights {_show(a)} add up to {z.real:.6g}")


@check("the weights are the softmax of your scores", 0.5, uses=("scaled_scores", "attention_weights"))
def weights_are_softmax_of_scores(sub, ref):
    s, a = _exprs(sub, "scaled_scores"), _exprs(sub, "attention_weights")
    if all(close_to(x, y) for x, y in zip(a, exact_softmax(s))):
        return
    hint = pair_hint(a, (
        (UNSCALED_WEIGHTS, exact_softmax(tuple(sp.Integer(d) for d in numbers().dots))),
        (SWAPPED_WEIGHTS, exact_softmax(s)[::-1]),
        (NOT_DIVIDED, tuple(sp.exp(x) for x in s)),
        (NO_EXP, tuple(x / sum(s) for x in s) if _num(sum(s)) else (sp.nan, sp.nan)),
        (doubled(a), exact_softmax(tuple(2 * x for x in s))),
    ))
    fail(f"your weights {_show(a)} are not the softmax of your own scores {_show(s)}: "
         f"a_j = e^(s_j) / (e^(s₁) + e^(s₂))." + hint)


@check("the output is a₁v₁ + a₂v₂ for your weights", 0.5, uses=("attention_weights", "attention_output"))
def output_is_weighted_values(sub, ref):
    a, y = _exprs(sub, "attention_weights"), _exprs(sub, "attention_output")
    (m1, m2), n = numbers().scales, numbers()
    if close_to(y[0], m1 * a[0]) and close_to(y[1], m2 * a[1]):
        return
    if all(digest("attention_output", i, e) == expected_digest("attention_output", i) for i, e in enumerate(y)):
        hint = f" {OUTPUT_RIGHT}"
    else:
        hint = pair_hint(y, ((SWAPPED_OUTPUT, (m2 * a[1], m1 * a[0])), (FIRST_TWICE, (m1 * a[0], m2 * a[0])),
                         (SECOND_TWICE, (m1 * a[1], m2 * a[1])), (NO_VALUES, a)))
    fail(f"with your weights {_show(a)}, a₁v₁ + a₂v₂ (v₁ = {n.v1}, v₂ = {n.v2}) is not your output "
         f"{_show(y)}." + hint)


@check("every value is right (checked through a one-way digest: the value is never shown)", 1, uses=FUNCS)
def values_match_their_digests(sub, ref):
    wrong, credit, hint, fractions = [], 0.0, "", []
    for func in FUNCS:
        exprs = _exprs(sub, func)
        for index, expr in enumerate(exprs):
            if digest(func, index, expr) == expected_digest(func, index):
                credit += 0.5 if inexact(expr) else 1.0
                if not expr.atoms(sp.Float) and float_born(expr):
                    fractions.append(f"{LETTER[func]}{SUB[index]} = {from_float_text(expr)}")
            else:
                wrong.append(f"{LETTER[func]}{SUB[index]} = {func}()[{index}]")
                hint = hint or (pair_hint(exprs, score_mistakes(numbers().dots)) if func == "scaled_scores" else "")
    if wrong:
        fail(f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not right (each value is compared through "
             f"a digest of its first 10 decimals, so a value that is only close is not right either). Work it "
             f"out again from {numbers().text()}{_whose()}."
             + hint, credit / 6)
    if fractions:
        fail(f"every value is numerically right, but not every one is exact: {fractions[0]}. Give exact SymPy "
             f"values (sympy.sqrt, sympy.exp, sympy.Rational(1, 2)), worked out from the numbers, not converted "
             f"from a float", credit / 6, Outcome.PARTIAL)
    if credit < 6:
        fail("every value is numerically right, but some are floats: give exact SymPy values "
             "(sympy.sqrt, sympy.exp, sympy.Rational) so that they are exactly right", credit / 6, Outcome.PARTIAL)


def _whose() -> str:
    """Where a student with a variant finds their numbers."""
    return f" (your own numbers, variant {current_variant()})" if current_variant() else ""
