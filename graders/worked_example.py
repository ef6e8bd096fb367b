"""Grader for the worked_example exercise ("the cat sat", d_model = 24, one head).

A course with variants (kit/variants.py) gives each student their own raw scores for "the cat
sat" (``numbers()``); the hidden checks call the student's functions on them."""

import hashlib
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .kit import (Catalogue, Domain, Fail, Mistake, NO_SHIFT, Raised, advice, advise, as_array, as_int, call_text,
                  check, current_variant, entries_within, expect, expect_new_array, expect_raises, fail, floats, for_all,
                  hnp, is_float, is_int, overflow, overflow_raised, pick_variant, show, st, weights)


class CatSat(NamedTuple):
    raw: tuple  # the raw scores q·k of "cat" against "the", "cat" and "sat"
    d_model: int = 24

    def text(self) -> str:
        return (f'the raw scores of "cat" against "the", "cat" and "sat": '
                f'{", ".join(f"{r:.3f}" for r in self.raw)}; d_model = {self.d_model}, one head')


SEED = CatSat((3.877, 14.905, 8.293))


@lru_cache(maxsize=None)
def _candidates() -> tuple:
    """Raw scores shaped as the seed's: "the" from 1 to 4, "sat" 2 to 5 above it, "cat" 6 to 9 above "sat"
    (so that without scaling the softmax saturates, as the lesson shows), with three decimals."""
    found = []
    for i in range(256):
        h = hashlib.sha256(f"worked_example cat sat {i}".encode()).digest()
        the, up, top = (int.from_bytes(h[j:j + 2], "big") % 3001 / 1000 for j in (0, 2, 4))
        the = round(1 + the, 3)
        sat = round(the + 2 + up, 3)
        found.append((the, round(sat + 6 + top, 3), sat))
    return tuple(found)


def numbers(variant=None) -> CatSat:
    """The "cat sat" scores of ``variant`` (by default the one being graded): the seed's for variant 0."""
    variant = current_variant() if variant is None else variant
    return SEED if variant == 0 else CatSat(pick_variant("worked_example", variant, _candidates()))


@st.composite
def scores_and_dk(draw, min_len=1, bound=20.0):
    """(raw, d_k): one query's raw scores (1-D, 1..6 keys) and a head size."""
    raw = draw(hnp.arrays(np.float64, st.integers(min_len, 6), elements=floats(bound)))
    return raw, draw(st.integers(1, 1024))


# ------------------------------------------------------------------ known mistakes
def _percent_mistake(says, scale=lambda raw, d: raw / np.sqrt(d), flag=lambda scaled: scaled, per=100.0,
                     shift=True, default=True):
    def model(raw, d_k, scaled=default):
        s = scale(raw, d_k) if flag(scaled) else raw
        return per * (weights(s) if shift else np.exp(s) / np.exp(s).sum())
    return Mistake(says, model)


BY_DK = "the scores are divided by d_k instead of √d_k"
TIMES = "the scores are multiplied by √d_k instead of divided by it"
SCALE = Catalogue("scale_scores", (((np.array([2.0, -8.0, 5.0]), 16), {}), ((np.array([3.0, 0.5]), 9), {})), (
    Mistake(BY_DK, lambda raw, d_k: raw / d_k), Mistake(TIMES, lambda raw, d_k: raw * np.sqrt(d_k)),
    Mistake("the scores are returned unscaled", lambda raw, d_k: raw),
), read=lambda out: as_array("the result", out, finite=False))
PERCENT = Catalogue("softmax_percent", (
    ((np.array([2.0, 8.0, 5.0]), 16), {"scaled": True}), ((np.array([2.0, 8.0, 5.0]), 16), {"scaled": False}),
    ((np.array([1.0, -3.0, 6.0]), 4), {}), ((np.array([900.0, 0.0, -900.0]), 1), {"scaled": False})), (
    _percent_mistake(BY_DK, scale=lambda raw, d: raw / d),
    _percent_mistake(TIMES, scale=lambda raw, d: raw * np.sqrt(d)),
    _percent_mistake("these are fractions that sum to 1, not percent: multiply by 100", per=1.0),
    _percent_mistake("the scores are never scaled: with scaled=True, scale them (scale_scores) before the softmax",
                     flag=lambda scaled: False),
    _percent_mistake("the scaled flag is inverted: scaled=True should scale the scores, scaled=False not",
                     flag=lambda scaled: not scaled),
    _percent_mistake("scaled defaults to False; the contract's default is scaled=True", default=False),
    _percent_mistake(NO_SHIFT, shift=False),
), read=lambda out: as_array("the result", out, finite=False))


# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
OVERFLOW = overflow("the largest score")
# What the stub promises (kit/domain.py): one query's raw scores, "hundreds or thousands" at most.
DOMAIN = Domain({f: ("raw scores of hundreds or thousands at most", lambda raw, d_k, scaled=True: entries_within(
    raw, minus_inf=False)) for f in ("scale_scores", "softmax_percent")})
INTEGER_DIVISION = advice("use integer division (//) so the head size is an int")
IN_PLACE = advice("work on a copy (raw / c makes a new array, raw /= c does not)")


def scaled_of(sub, raw, d_k):
    return as_array(f"{call_text('scale_scores', raw, d_k)} returned an array that",
                    sub.call("scale_scores", raw, d_k), shape=raw.shape)


def percent_of(sub, raw, d_k, scaled=True):
    call = call_text("softmax_percent", raw, d_k, scaled=scaled)
    return call, as_array(f"{call} returned an array that", sub.call("softmax_percent", raw, d_k, scaled=scaled),
                          shape=raw.shape)


# ------------------------------------------------------------------ public checks
@check("scale_scores divides by √d_k, for one query's scores or a matrix of them: 4 times the d_k halves the "
       "scores, d_k = 1 keeps them", 1,
       uses=("scale_scores",))
def scale_is_division(sub, ref):
    def prop(case):
        raw, d_k = case
        for d, before, factor in ((1, raw, 1.0), (4 * d_k, scaled_of(sub, raw, d_k), 0.5)):
            out = scaled_of(sub, raw, d)
            if not np.allclose(out, factor * before, rtol=1e-9, atol=1e-12):
                than = "the scores themselves" if d == 1 else f"half of scale_scores(raw, {d_k}) = {show(before)}"
                SCALE.fail(sub, f"called {call_text('scale_scores', raw, d)}; got {show(out)}, which should be {than}: "
                                f"dividing by √d_k, d_k = 1 changes nothing and 4 times the d_k divides by 2 more.")

    for_all(scores_and_dk().filter(lambda c: np.any(c[0] != 0)), prop, max_examples=15,
            examples=[(np.array([1.0, -2.0, 4.0]), 16)])
    # "the same shape": a matrix of scores (a query per row) stays a matrix; half the points, since one
    # query's scores, the lesson's case, are right
    raw = np.array([[1.0, -2.0, 4.0], [0.5, 3.0, -1.0]])
    call = call_text("scale_scores", raw, 4)
    try:
        out = scaled_of(sub, raw, 4)
    except Fail as exc:
        fail(f"{exc.message}. One query's scores come out right; a matrix of them, a query per row, must keep its "
             f"shape too (half the points).", 0.5)
    except Raised as exc:
        fail(f"{exc}\nOne query's scores come out right; a matrix of them, a query per row, must be scaled too "
             f"(half the points).", 0.5)
    if not np.allclose(out, raw / 2, rtol=1e-9, atol=1e-12):
        SCALE.fail(sub, f"called {call}; got {show(out)}, which is not each score divided by √4 = 2.", fraction=0.5)


@check("softmax_percent gives percentages summing to 100, in the order of the scores", 1,
       uses=("softmax_percent",))
def percent_properties(sub, ref):
    def prop(case):
        (raw, d_k), scaled = case
        call, w = percent_of(sub, raw, d_k, scaled)
        if not np.isclose(w.sum(), 100.0, rtol=0, atol=1e-8):
            PERCENT.fail(sub, f"called {call}; got {show(w)}, which sums to {w.sum():.6g}, not 100.")
        expect(np.all((w >= 0) & (w <= 100)), f"called {call}; got {show(w)}: percentages lie in [0, 100]")
        hi, lo = raw[:, None] > raw[None, :], raw[:, None] == raw[None, :]
        diff = w[:, None] - w[None, :]
        if not (np.all(diff[hi] >= -1e-12) and np.allclose(diff[lo], 0, atol=1e-9)):
            PERCENT.fail(sub, f"called {call}; got {show(w)}: a larger score must get at least as large a weight, and "
                              f"equal scores equal weights.")

    for_all(st.tuples(scores_and_dk(), st.booleans()), prop, max_examples=30,
            examples=[((np.array([1.0, 2.0, 3.0]), 4), True), ((np.array([0.5, 0.5]), 9), False)])


@check("scaled=True is the softmax of the scaled scores, scaled=False of the raw ones (the default: True)", 1,
       uses=("softmax_percent", "scale_scores"))
def flag_and_default(sub, ref):
    def prop(case):
        raw, d_k = case
        scaled = scaled_of(sub, raw, d_k)
        # scaled by name, by position (the stub allows both) and left out
        for flag, kwargs, same_as, what in (((), {"scaled": True}, (scaled, 1), "the scaled scores"),
                                            ((), {"scaled": False}, (raw, d_k), "the raw scores"),
                                            ((False,), {}, (raw, d_k), "the raw scores"),
                                            ((True,), {}, (scaled, 1), "the scaled scores"),
                                            ((), {}, (scaled, 1), "the scaled scores (scaled=True is the default)")):
            call = call_text("softmax_percent", raw, d_k, *flag, **kwargs)
            got = as_array(f"{call} returned an array that", sub.call("softmax_percent", raw, d_k, *flag, **kwargs),
                           shape=raw.shape)
            _, want = percent_of(sub, same_as[0], same_as[1], scaled=False)
            if not np.allclose(got, want, rtol=1e-9, atol=1e-9):
                PERCENT.fail(sub, f"called {call}; got {show(got)}, but the softmax (in percent) of {what}, "
                                  f"{show(same_as[0])}, is {show(want)} by your own softmax_percent(..., "
                                  "scaled=False).")

    for_all(scores_and_dk(min_len=2).filter(lambda c: c[1] > 1 and np.ptp(c[0]) > 0.5), prop, max_examples=15,
            examples=[(np.array([1.0, 2.0, 3.0]), 16)])
    # unscaled, d_k plays no part: a flag that is ignored (always scaling) answers otherwise for another d_k
    raw = np.array([1.0, 2.0, 3.0])
    call, unscaled = percent_of(sub, raw, 16, scaled=False)
    call_1, unscaled_1 = percent_of(sub, raw, 1, scaled=False)
    if not np.allclose(unscaled, unscaled_1, rtol=1e-9, atol=1e-9):
        PERCENT.fail(sub, f"{call} gave {show(unscaled)}, but {call_1} gave {show(unscaled_1)}: with scaled=False "
                          f"the raw scores go into the softmax as they are, so d_k must not change the result.")


@check("softmax_percent stays finite, summing to 100, for large scores", 0.5, uses=("softmax_percent",))
def percent_large_scores(sub, ref):
    for raw, d_k, scaled in ((np.array([900.0, 0.0, -900.0]), 1, False), (np.array([1e4, 9990.0]), 4, True)):
        call = call_text("softmax_percent", raw, d_k, scaled=scaled)
        with overflow_raised(OVERFLOW):  # math.exp's OverflowError is the same mistake as an np.exp at inf
            out = sub.call("softmax_percent", raw, d_k, scaled=scaled)
        w = as_array(f"{call} returned an array that", out, shape=raw.shape, finite=False)
        if not np.all(np.isfinite(w)):
            PERCENT.fail(sub, f"called {call}; got {show(w)}, which is not finite.", OVERFLOW)
        if not np.isclose(w.sum(), 100.0):
            PERCENT.fail(sub, f"called {call}; got {show(w)}, which sums to {w.sum():.6g}: percentages sum to 100.")


@check("head_dim returns an int that splits d_model evenly", 0.5, uses=("head_dim",))
def head_dim_int(sub, ref):
    def prop(case):
        n_heads, size = case
        d_model = n_heads * size
        got = sub.call("head_dim", d_model, n_heads)
        call = call_text("head_dim", d_model, n_heads)
        if is_float(got) and not is_int(got):  # the right size, as a float: what / gives where // was meant
            fail(f"{call} returned {got!r}, a float" + (f": {INTEGER_DIVISION}" if got == d_model / n_heads
                                                        else "; head_dim returns an int"))
        got = as_int(call, got)
        expect(got * n_heads == d_model, f"{call} returned {got}: {n_heads} heads of size {got} do not "
                                         f"make up d_model = {d_model}")

    for_all(st.tuples(st.integers(1, 16), st.integers(1, 128)), prop, max_examples=20, examples=[(4, 6)])


@check("head_dim raises ValueError when n_heads does not divide d_model", 0.5, uses=("head_dim",))
def head_dim_raises(sub, ref):
    advise([expect_raises(sub, "head_dim", (d_model, n_heads), exception="ValueError", test="n_heads divides d_model",
                          call=call_text("head_dim", d_model, n_heads),
                          reason=f"{n_heads} heads cannot split d_model = {d_model} evenly")
            for d_model, n_heads in ((10, 3), (512, 7), (24, 5), (768, 10), (7, 2))])


@check("leaves raw unchanged and returns a new array", 0.5, uses=("scale_scores", "softmax_percent"))
def input_unchanged(sub, ref):
    raw, other = np.array([1.5, -2.0, 0.5]), np.array([0.5, 1.0, -3.0])
    last = None  # the call before (function, text, answer): raw and other have one shape, so a kept buffer shows
    for func, args, kwargs in (("scale_scores", (raw, 16), {}), ("scale_scores", (raw, 1), {}),
                               ("scale_scores", (other, 4), {}), ("softmax_percent", (raw, 16), {}),
                               ("softmax_percent", (other, 16), {}), ("softmax_percent", (raw, 16), {"scaled": False})):
        call = call_text(func, *args, **kwargs)
        out, changed = sub.call_full(func, *args, **kwargs)
        expect(not changed, f"{call} modified raw in place; {IN_PLACE}")
        expect_new_array(call, changed, ("raw", "d_k"), last[1:] if last and last[0] == func else None)
        last = (func, call, out)
