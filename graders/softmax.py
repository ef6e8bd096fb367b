"""Grader for the softmax exercise: properties first, then agreement."""

import numpy as np
from hypothesis import strategies as st

from .kit.checks import Fail, as_array, call_text, check, diagnose, expect, show
from .kit.props import for_all
from .kit.strategies import array_and_axis, arrays_any_rank


def _softmax(sub, z, axis):
    """Call the student's softmax and validate the answer's type and shape."""
    out = sub.call("softmax", z, axis=axis)
    return as_array(f"{call_text('softmax', z, axis=axis)} returned an array that", out, shape=z.shape)


@check("returns a float64 array of the input's shape", 1, uses=("softmax",))
def shape_and_dtype(sub, ref):
    z = np.array([[0.0, 1.0, 2.0], [3.0, 3.0, 3.0]])
    out = sub.call("softmax", z)
    a = as_array(f"softmax({show(z)})", out, shape=z.shape)
    expect(out.dtype == np.float64, f"softmax({show(z)}) returned dtype {out.dtype}; return float64")
    expect(a.shape == z.shape, "shape changed")


@check("weights along the axis sum to 1, for any rank and axis", 2, uses=("softmax",))
def sums_to_one(sub, ref):
    def prop(case):
        z, axis = case
        a = _softmax(sub, z, axis)
        total = a.sum(axis=axis)
        if not np.allclose(total, 1.0, atol=1e-9):
            worst = total.flat[int(np.argmax(np.abs(total - 1.0)))]
            hint = diagnose(a, [
                ("it looks like the sum is taken over the wrong axis",
                 lambda: np.exp(z) / np.exp(z).sum(axis=0 if axis not in (0, -z.ndim) else -1, keepdims=True)),
                ("it looks like you normalised over the whole array, not along the axis",
                 lambda: np.exp(z - z.max()) / np.exp(z - z.max()).sum()),
            ])
            raise Fail(f"called {call_text('softmax', z, axis=axis)}; the weights along axis {axis} "
                       f"should sum to 1, but one sum is {worst:.6g}." + (f" Hint: {hint}." if hint else ""))

    for_all(array_and_axis(), prop, examples=[(np.array([[0.0, 1.0]]), -1), (np.array([[0.0, 1.0], [2.0, 5.0]]), 0)])


@check("every weight lies in [0, 1]", 1, uses=("softmax",))
def in_unit_interval(sub, ref):
    def prop(case):
        z, axis = case
        a = _softmax(sub, z, axis)
        expect(np.all((a >= 0) & (a <= 1)),
               f"called {call_text('softmax', z, axis=axis)}; got {show(a)}, which has entries outside [0, 1]")

    for_all(array_and_axis(), prop)


@check("adding a constant along the axis changes nothing", 1, uses=("softmax",))
def shift_invariant(sub, ref):
    def prop(case):
        (z, axis), c = case
        a = _softmax(sub, z, axis)
        b = _softmax(sub, z + c, axis)
        expect(np.allclose(a, b, atol=1e-9),
               f"softmax(z) and softmax(z + {c}) differ for z = {show(z)}, axis={axis}: "
               f"got {show(a)} and {show(b)}; softmax only depends on differences between entries")

    for_all(st.tuples(array_and_axis(), st.sampled_from([-100.0, -3.5, 1.0, 50.0, 700.0])), prop, max_examples=25)


@check("-inf entries get weight exactly 0", 1, uses=("softmax",))
def minus_inf_is_zero(sub, ref):
    @st.composite
    def with_minus_inf(draw):
        z = draw(arrays_any_rank(max_dims=2, bound=5.0).filter(lambda a: a.shape[-1] >= 2))
        hole = draw(st.lists(st.booleans(), min_size=z.shape[-1], max_size=z.shape[-1])
                    .filter(lambda h: not all(h)))
        z = z.copy()
        z[..., np.array(hole)] = -np.inf
        return z

    def prop(z):
        a = _softmax(sub, z, -1)
        masked = np.isneginf(z)
        expect(np.all(a[masked] == 0.0),
               f"called {call_text('softmax', z)}; got {show(a)}: entries that were -inf should be exactly 0")
        expect(np.allclose(a.sum(axis=-1), 1.0), f"called {call_text('softmax', z)}; rows of {show(a)} should sum to 1")

    for_all(with_minus_inf(), prop, max_examples=25, examples=[np.array([[0.0, -np.inf]])])


@check("stays finite for entries as large as ±1e4", 1, uses=("softmax",))
def large_entries_finite(sub, ref):
    for z in (np.array([[1e4, 0.0, -1e4]]), np.array([[1e4, 0.0], [-1e4, -1e4 + 1.0]]), np.array([1e4, 1e4])):
        out = sub.call("softmax", z)
        a = as_array(f"softmax({show(z)})", out, shape=z.shape, finite=False)
        if not np.all(np.isfinite(a)):
            raise Fail(f"called softmax({show(z)}); got {show(a)}. np.exp overflows for large entries: "
                       f"subtract the maximum along the axis first (it does not change the result)")
        expect(np.allclose(a.sum(axis=-1), 1.0), f"called softmax({show(z)}); got {show(a)}, which does not sum to 1")


@check("leaves its input unchanged", 1, uses=("softmax",))
def input_unchanged(sub, ref):
    z = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]])
    for axis in (-1, 0):
        _, changed = sub.call_full("softmax", z, axis=axis)
        expect(not changed, f"softmax({show(z)}, axis={axis}) modified z in place; work on a copy "
                            f"(z - m makes a new array, z -= m does not)")
