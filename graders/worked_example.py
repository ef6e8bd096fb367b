"""Grader for the worked_example exercise ("the cat sat", d_model = 24, one head)."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .kit.checks import Fail, Raised, as_array, call_text, check, expect, show
from .kit.props import for_all
from .kit.strategies import floats


@st.composite
def scores_and_dk(draw, min_len=1, bound=20.0):
    """(raw, d_k): one query's raw scores (1-D, 1..6 keys) and a head size."""
    raw = draw(hnp.arrays(np.float64, st.integers(min_len, 6), elements=floats(bound)))
    return raw, draw(st.integers(1, 1024))


def _scaled(sub, raw, d_k):
    return as_array(f"{call_text('scale_scores', raw, d_k)} returned an array that",
                    sub.call("scale_scores", raw, d_k), shape=raw.shape)


def _percent(sub, raw, d_k, scaled=True):
    call = call_text("softmax_percent", raw, d_k, scaled=scaled)
    return call, as_array(f"{call} returned an array that", sub.call("softmax_percent", raw, d_k, scaled=scaled),
                          shape=raw.shape)


@check("scale_scores divides all scores by one factor that grows with d_k", 1, uses=("scale_scores",))
def scale_is_division(sub, ref):
    def prop(case):
        raw, d_k = case
        factors = []
        for d in (1, d_k, 4 * d_k):
            out = _scaled(sub, raw, d)
            nz = raw != 0
            expect(np.all(out[~nz] == 0) and np.all(np.sign(out[nz]) == np.sign(raw[nz])),
                   f"called {call_text('scale_scores', raw, d)}; got {show(out)}: scaling must keep every "
                   f"score's sign (and zeros stay zero)")
            f = raw[nz] / out[nz]
            expect(np.allclose(f, f[0], rtol=1e-9), f"called {call_text('scale_scores', raw, d)}; got {show(out)}: "
                                                    f"every score should be divided by the same factor")
            factors.append(f[0])
        expect(np.isclose(factors[0], 1.0, rtol=1e-12),
               f"called {call_text('scale_scores', raw, 1)}; got {show(_scaled(sub, raw, 1))}: with d_k = 1 "
               f"the scores should not change")
        expect(1.0 <= factors[1] < factors[2],
               f"called scale_scores with d_k = {d_k} and d_k = {4 * d_k} on {show(raw)}: the scores should "
               f"be divided by a factor that grows with d_k, got factors {factors[1]:.6g} and {factors[2]:.6g}")

    for_all(scores_and_dk().filter(lambda c: np.any(c[0] != 0)), prop, max_examples=15,
            examples=[(np.array([1.0, -2.0, 4.0]), 16)])


@check("softmax_percent gives percentages summing to 100, in the order of the scores", 1,
       uses=("softmax_percent",))
def percent_properties(sub, ref):
    def prop(case):
        (raw, d_k), scaled = case
        call, w = _percent(sub, raw, d_k, scaled)
        if not np.isclose(w.sum(), 100.0, rtol=0, atol=1e-8):
            hint = " These look like fractions: multiply by 100 for percent." if np.isclose(w.sum(), 1.0) else ""
            raise Fail(f"called {call}; got {show(w)}, which sums to {w.sum():.6g}, not 100.{hint}")
        expect(np.all((w >= 0) & (w <= 100)), f"called {call}; got {show(w)}: percentages lie in [0, 100]")
        hi, lo = raw[:, None] > raw[None, :], raw[:, None] == raw[None, :]
        diff = w[:, None] - w[None, :]
        expect(np.all(diff[hi] >= -1e-12) and np.allclose(diff[lo], 0, atol=1e-9),
               f"called {call}; got {show(w)}: a larger score must get at least as large a weight, "
               f"and equal scores equal weights")

    for_all(st.tuples(scores_and_dk(), st.booleans()), prop, max_examples=30,
            examples=[((np.array([1.0, 2.0, 3.0]), 4), True), ((np.array([0.5, 0.5]), 9), False)])


@check("scaled weights are less peaked than unscaled ones", 0.5, uses=("softmax_percent",))
def scaling_flattens(sub, ref):
    def prop(case):
        raw, d_k = case
        call_s, s = _percent(sub, raw, d_k, True)
        call_u, u = _percent(sub, raw, d_k, False)
        if np.array_equal(s, u) and np.ptp(raw) > 0.5:
            raise Fail(f"{call_s} and {call_u} gave the same weights {show(s)}: when scaled is True, scale "
                       f"the scores (scale_scores) before the softmax")
        expect(s.max() <= u.max() + 1e-9,
               f"{call_s} gave {show(s)} but {call_u} gave {show(u)}: the scaled weights should be less peaked "
               f"(a smaller largest weight) for d_k > 1: check that scaling divides the scores and that the scaled "
               f"flag is not inverted")

    for_all(scores_and_dk(min_len=2).filter(lambda c: c[1] > 1), prop, max_examples=15,
            examples=[(np.array([1.0, 2.0, 3.0]), 16)])


@check("head_dim returns an int that splits d_model evenly", 0.5, uses=("head_dim",))
def head_dim_int(sub, ref):
    def prop(case):
        n_heads, size = case
        d_model = n_heads * size
        got = sub.call("head_dim", d_model, n_heads)
        call = call_text("head_dim", d_model, n_heads)
        if isinstance(got, float):
            raise Fail(f"{call} returned {got!r}, a float: use integer division (//) so the head size is an int")
        expect(isinstance(got, int) and not isinstance(got, bool), f"{call} returned {show(got)}; return an int")
        expect(got * n_heads == d_model, f"{call} returned {got}: {n_heads} heads of size {got} do not "
                                         f"make up d_model = {d_model}")

    for_all(st.tuples(st.integers(1, 16), st.integers(1, 128)), prop, max_examples=20, examples=[(4, 6)])


@check("head_dim raises ValueError when n_heads does not divide d_model", 0.5, uses=("head_dim",))
def head_dim_raises(sub, ref):
    for d_model, n_heads in ((10, 3), (512, 7), (24, 5), (768, 10), (7, 2)):
        call = call_text("head_dim", d_model, n_heads)
        try:
            got = sub.call("head_dim", d_model, n_heads)
        except Raised as exc:
            if exc.not_written:
                raise
            if exc.is_a("ValueError"):
                continue
            raise Fail(f"{call} raised {exc.type_name}; raise ValueError when {n_heads} heads cannot split "
                       f"d_model = {d_model} evenly") from None
        raise Fail(f"{call} returned {show(got)} instead of raising ValueError: {n_heads} heads cannot split "
                   f"d_model = {d_model} evenly, and rounding silently would lose dimensions")


@check("leaves raw unchanged", 0.5, uses=("scale_scores", "softmax_percent"))
def input_unchanged(sub, ref):
    raw = np.array([1.5, -2.0, 0.5])
    for func, kwargs in (("scale_scores", {}), ("softmax_percent", {}), ("softmax_percent", {"scaled": False})):
        _, changed = sub.call_full(func, raw, 16, **kwargs)
        expect(not changed, f"{call_text(func, raw, 16, **kwargs)} modified raw in place; work on a copy "
                            f"(raw / c makes a new array, raw /= c does not)")
