"""Grader for the softmax exercise: properties first, then agreement."""

import numpy as np

from .kit.lazy import st
from .kit.checks import Catalogue, Mistake, advice, as_array, call_text, check, expect, show
from .kit.props import for_all
from .kit.strategies import array_and_axis, arrays_any_rank

INF = np.inf
IN_PLACE = advice("work on a copy (z - m makes a new array, z -= m or z[...] = ... does not)")  # on observation only


# ------------------------------------------------------------------ known mistakes
def _weights(z, axis, shift=True, total="axis"):
    """Softmax along ``axis``; ``total``: the axis the sum runs along, if not that one (None: all)."""
    top = z.max(axis=axis, keepdims=True) if shift else 0.0
    w = np.exp(z - top)
    return w / w.sum(axis=axis if total == "axis" else total, keepdims=True)


MISTAKES = (
    Mistake("the softmax always runs along the last axis, whatever axis is asked for: pass axis to the "
            "max and to the sum", lambda z, axis: _weights(z, -1)),
    Mistake("the softmax always runs along axis 0, whatever axis is asked for: pass axis to the max and "
            "to the sum", lambda z, axis: _weights(z, 0)),
    Mistake("the exponentials are normalised over the whole array, not along the axis",
            lambda z, axis: np.exp(z - z.max()) / np.exp(z - z.max()).sum()),
    Mistake("np.exp is taken of the entries as they are, and it overflows to inf for large ones: subtract "
            "the maximum along the axis first (that does not change the result)",
            lambda z, axis: _weights(z, axis, shift=False)),
    Mistake("the maximum of the whole array is subtracted, so a slice far below it underflows to 0 / 0: "
            "subtract each slice's own maximum (np.max along the axis, keepdims=True)",
            lambda z, axis: np.exp(z - z.max()) / np.exp(z - z.max()).sum(axis=axis, keepdims=True)),
    Mistake("the -inf entries are replaced by 0 before the softmax, so they get weight; leave them as they "
            "are: after subtracting the maximum, exp(-inf) is exactly 0",
            lambda z, axis: _weights(np.where(np.isinf(z), 0.0, z), axis)),
    Mistake("the exponentials are not divided by their sum along the axis",
            lambda z, axis: np.exp(z - z.max(axis=axis, keepdims=True))),
    Mistake("the maximum is taken along the axis, but the sum always along the last one: pass axis to the "
            "sum too (with keepdims=True)", lambda z, axis: _weights(z, axis, total=-1)),
    Mistake("the maximum is taken along the axis, but the sum over the whole array: divide by the sum "
            "along the axis instead (keepdims=True)", lambda z, axis: _weights(z, axis, total=None)),
)

Z23 = np.array([[0.0, 1.0, 3.0], [2.0, -1.0, 0.5]])
PROBES = tuple(((z,), {"axis": axis}) for z, axis in (
    (Z23, 0), (Z23, -1), (np.array([[[0.5, -1.0], [2.0, 0.0], [1.0, 1.5]]]), 1),
    (np.array([[1e4, 0.0, -1e4]]), -1), (np.array([[0.0, 1.0], [-1e4, -1e4 + 1.0]]), -1),
    (np.array([[-1e4, -1e4 + 1.0]]), -1),  # far below zero, the whole array: the whole array's max is enough
    (np.array([[0.0, -INF, 1.0], [-INF, 2.0, 0.0]]), -1)))
CATALOGUE = Catalogue("softmax", PROBES, MISTAKES,
                      read=lambda out: as_array("the result", out, finite=False))


# ------------------------------------------------------------------ calling the student
def _softmax(sub, z, axis):
    """Call the student's softmax and validate the answer's type and shape."""
    out = sub.call("softmax", z, axis=axis)
    return as_array(f"{call_text('softmax', z, axis=axis)} returned an array that", out, shape=z.shape)


def _expect(sub, condition, message):
    """``expect``, with a hint when the probes identify a known mistake."""
    if not condition:
        expect(False, message + CATALOGUE.hint(sub))


# ------------------------------------------------------------------ public checks
@check("returns a float64 array of the input's shape", 1, uses=("softmax",))
def shape_and_dtype(sub, ref):
    z = np.array([[0.0, 1.0, 2.0], [3.0, 3.0, 3.0]])
    out = sub.call("softmax", z)
    as_array(f"{call_text('softmax', z)} returned an array that", out, shape=z.shape)
    expect(out.dtype == np.float64, f"{call_text('softmax', z)} returned dtype {out.dtype}; return float64")


def _default_axis_is_last(sub):
    for z in (np.array([[0.0, 1.0, 2.0], [3.0, 0.5, -1.0]]), np.array([[[1.0, 0.0], [0.0, 2.0]]])):
        plain = as_array(f"{call_text('softmax', z)} returned an array that", sub.call("softmax", z), shape=z.shape)
        last = _softmax(sub, z, -1)
        expect(np.allclose(plain, last, rtol=1e-12, atol=1e-15),
               f"{call_text('softmax', z)} gave {show(plain)}, but {call_text('softmax', z, axis=-1)} gave "
               f"{show(last)}: without an axis argument softmax must work along the last axis "
               f"(def softmax(z, axis=-1))")


@check("weights along the axis sum to 1, for any rank and axis", 2, uses=("softmax",))
def sums_to_one(sub, ref):
    _default_axis_is_last(sub)

    def prop(case):
        z, axis = case
        a = _softmax(sub, z, axis)
        total = a.sum(axis=axis)
        worst = total.flat[int(np.argmax(np.abs(total - 1.0)))]
        _expect(sub, np.allclose(total, 1.0, atol=1e-9),
                f"called {call_text('softmax', z, axis=axis)}; the weights along axis {axis} should sum to 1, "
                f"but one sum is {worst:.6g}.")

    for_all(array_and_axis(), prop, examples=[(np.array([[0.0, 1.0]]), -1), (np.array([[0.0, 1.0], [2.0, 5.0]]), 0)])


@check("every weight lies in [0, 1]", 1, uses=("softmax",))
def in_unit_interval(sub, ref):
    def prop(case):
        z, axis = case
        a = _softmax(sub, z, axis)
        _expect(sub, np.all((a >= 0) & (a <= 1)),
                f"called {call_text('softmax', z, axis=axis)}; got {show(a)}, which has entries outside [0, 1].")

    for_all(array_and_axis(), prop)


@check("adding a constant along the axis changes nothing", 1, uses=("softmax",))
def shift_invariant(sub, ref):
    def prop(case):
        (z, axis), c = case
        a = _softmax(sub, z, axis)
        b = _softmax(sub, z + c, axis)
        _expect(sub, np.allclose(a, b, atol=1e-9),
                f"softmax(z) and softmax(z + {c}) differ for z = {show(z)}, axis={axis}: got {show(a)} and "
                f"{show(b)}; softmax only depends on differences between entries.")

    for_all(st.tuples(array_and_axis(), st.sampled_from([-100.0, -3.5, 1.0, 50.0, 700.0])), prop, max_examples=25)


@st.composite
def with_minus_inf(draw):
    """An array with -inf in some (never all) positions of its last axis: the counterexample
    always shows a -inf, and every slice still has a finite entry."""
    z = draw(arrays_any_rank(max_dims=2, bound=5.0).filter(lambda a: a.shape[-1] >= 2))
    hole = draw(st.lists(st.booleans(), min_size=z.shape[-1], max_size=z.shape[-1])
                .filter(lambda h: any(h) and not all(h)))
    z = z.copy()
    z[..., np.array(hole)] = -INF
    return z


@check("-inf entries get weight exactly 0", 1, uses=("softmax",))
def minus_inf_is_zero(sub, ref):
    def prop(z):
        a = _softmax(sub, z, -1)
        _expect(sub, np.all(a[np.isneginf(z)] == 0.0),
                f"called {call_text('softmax', z)}; got {show(a)}: entries that were -inf should be exactly 0.")
        _expect(sub, np.allclose(a.sum(axis=-1), 1.0),
                f"called {call_text('softmax', z)}; rows of {show(a)} should sum to 1.")

    for_all(with_minus_inf(), prop, max_examples=25, examples=[np.array([[0.0, -INF]])])


@check("stays finite for entries as large as ±1e4", 1, uses=("softmax",))
def large_entries_finite(sub, ref):
    # the last two: slices whose entries are all far below zero, where np.exp underflows to 0 unshifted
    for z in (np.array([[1e4, 0.0, -1e4]]), np.array([[1e4, 0.0], [-1e4, -1e4 + 1.0]]), np.array([1e4, 1e4]),
              np.array([-1e4, -1e4 + 1.0]), np.array([[-800.0, -801.0, -802.0]])):
        call = call_text("softmax", z)
        a = as_array(f"{call} returned an array that", sub.call("softmax", z), shape=z.shape, finite=False)
        _expect(sub, np.all(np.isfinite(a)), f"called {call}; got {show(a)}, which is not finite.")
        _expect(sub, np.allclose(a.sum(axis=-1), 1.0), f"called {call}; got {show(a)}, which does not sum to 1.")


@check("leaves its input unchanged", 1, uses=("softmax",))
def input_unchanged(sub, ref):
    z = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]])
    masked = np.array([[1.0, -INF, 3.0], [-INF, -1.0, 5.0]])
    for arr, axis in ((z, -1), (z, 0), (masked, -1), (masked[None], 2), (np.array([1e4, -1e4]), 0)):
        _, changed = sub.call_full("softmax", arr, axis=axis)
        expect(not changed, f"{call_text('softmax', arr, axis=axis)} modified z in place; {IN_PLACE}")
