"""Grader for the softmax exercise: properties first, then agreement."""

import numpy as np

from .kit import (Catalogue, Domain, Mistake, NO_SHIFT, Student, advice, array_and_axis, array_aside, arrays_any_rank,
                  as_array, call_text, check, entries_within, expect, expect_new_array, for_all, overflow, overflow_raised, show, st)

INF = np.inf
# What the stub promises (kit/domain.py): entries from -1e4 to +1e4, or -inf.
DOMAIN = Domain({"softmax": ("entries as large as ±1e4, or -inf", lambda z, axis=-1: entries_within(z))})
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
IN_PLACE = advice("work on a copy (z - m makes a new array, z -= m or z[...] = ... does not)")
SHIFT = overflow("the maximum along the axis")
FLOOR = advice("So the weights are held above a floor (as np.clip or np.maximum hold them): the 0 that exp(-inf) "
               "gives must stay 0.")


# ------------------------------------------------------------------ known mistakes
def _weights(z, axis, shift=True, total="axis", keep=(True, True), base=None):
    """Softmax along ``axis``; ``total``: the axis the sum runs along, if not that one (None: all);
    ``keep``: keepdims of the maximum and of the sum; ``base``: of the powers, if not e."""
    top = z.max(axis=axis, keepdims=keep[0]) if shift else 0.0
    w = np.exp(z - top) if base is None else np.power(base, z - top)
    return w / w.sum(axis=axis if total == "axis" else total, keepdims=keep[1])


KEEPDIMS = ("without keepdims=True, so it loses that axis and lines up with another one (or cannot broadcast): "
            "pass keepdims=True")
MISTAKES = (
    Mistake("the softmax always runs along the last axis, whatever axis is asked for: pass axis to the "
            "max and to the sum", lambda z, axis: _weights(z, -1)),
    Mistake("the softmax always runs along axis 0, whatever axis is asked for: pass axis to the max and "
            "to the sum", lambda z, axis: _weights(z, 0)),
    Mistake("the softmax always runs along axis 1, whatever axis is asked for: pass axis to the max and "
            "to the sum", lambda z, axis: _weights(z, 1)),
    Mistake("the exponentials are normalised over the whole array, not along the axis",
            lambda z, axis: np.exp(z - z.max()) / np.exp(z - z.max()).sum()),
    Mistake(NO_SHIFT, lambda z, axis: _weights(z, axis, shift=False)),
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
    Mistake("the maximum is taken along the last axis, but the sum along the axis asked for: take the maximum "
            "along that axis too (keepdims=True)", lambda z, axis: _weights(z, -1, total=axis)),
    Mistake(f"the sum along the axis is taken {KEEPDIMS} to the sum",
            lambda z, axis: _weights(z, axis, keep=(True, False))),
    Mistake(f"the maximum and the sum along the axis are taken {KEEPDIMS} to both",
            lambda z, axis: _weights(z, axis, keep=(False, False))),
    Mistake("the weights are powers of 2, not of e: use np.exp", lambda z, axis: _weights(z, axis, base=2.0)),
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
def softmax_of(sub: Student, z, axis):
    """Call the student's softmax and validate the answer's type and shape."""
    out = CATALOGUE.call(sub, z, axis=axis)
    with CATALOGUE.reworded(sub):
        return as_array(f"{call_text('softmax', z, axis=axis)} returned an array that", out, shape=z.shape)


# ------------------------------------------------------------------ public checks
@check("returns a float64 array of the input's shape, axis given by position or by name", 1, uses=("softmax",))
def shape_and_dtype(sub: Student, ref):
    z = np.array([[0.0, 1.0, 2.0], [3.0, 3.0, 3.0]])
    out = CATALOGUE.call(sub, z)
    as_array(f"{call_text('softmax', z)} returned an array that", out, shape=z.shape)
    expect(out.dtype == np.float64, f"{call_text('softmax', z)} returned dtype {out.dtype}; return float64")
    # softmax(z, axis=-1) takes axis by position too, as its signature says
    by_name = softmax_of(sub, z, 0)
    by_position = as_array(f"{call_text('softmax', z, 0)} returned an array that", sub.call("softmax", z, 0),
                           shape=z.shape)
    expect(np.array_equal(by_name, by_position, equal_nan=True),
           f"{call_text('softmax', z, 0)} gave {show(by_position)}, but {call_text('softmax', z, axis=0)} gave "
           f"{show(by_name)}: axis given by position is the same axis as given by name")


def _default_axis_is_last(sub: Student):
    for z in (np.array([[0.0, 1.0, 2.0], [3.0, 0.5, -1.0]]), np.array([[[1.0, 0.0], [0.0, 2.0]]])):
        plain = as_array(f"{call_text('softmax', z)} returned an array that", sub.call("softmax", z), shape=z.shape)
        last = softmax_of(sub, z, -1)
        expect(np.allclose(plain, last, rtol=1e-12, atol=1e-15),
               f"{call_text('softmax', z)} gave {show(plain)}, but {call_text('softmax', z, axis=-1)} gave "
               f"{show(last)}: without an axis argument softmax must work along the last axis "
               f"(def softmax(z, axis=-1))")


@check("weights along the axis sum to 1, for any rank and axis", 2, uses=("softmax",))
def sums_to_one(sub: Student, ref):
    _default_axis_is_last(sub)

    def prop(case):
        z, axis = case
        a = softmax_of(sub, z, axis)
        total = a.sum(axis=axis)
        worst = total.flat[int(np.argmax(np.abs(total - 1.0)))]
        CATALOGUE.expect(sub, np.allclose(total, 1.0, atol=1e-9),
                         f"called {call_text('softmax', z, axis=axis)}; the weights along axis {axis} should sum to 1, "
                         f"but one sum is {worst:.6g}.")

    for_all(array_and_axis(), prop, examples=[(np.array([[0.0, 1.0]]), -1), (np.array([[0.0, 1.0], [2.0, 5.0]]), 0)])


@check("every weight lies in [0, 1]", 1, uses=("softmax",))
def in_unit_interval(sub: Student, ref):
    def prop(case):
        z, axis = case
        a = softmax_of(sub, z, axis)
        CATALOGUE.expect(sub, np.all((a >= 0) & (a <= 1)),
                         f"called {call_text('softmax', z, axis=axis)}; got {show(a)}, which has entries outside "
                         f"[0, 1].")

    for_all(array_and_axis(), prop)


@check("adding a constant along the axis changes nothing", 1, uses=("softmax",))
def shift_invariant(sub: Student, ref):
    def prop(case):
        (z, axis), c = case
        a = softmax_of(sub, z, axis)
        b = softmax_of(sub, z + c, axis)
        CATALOGUE.expect(sub, np.allclose(a, b, atol=1e-9),
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
def minus_inf_is_zero(sub: Student, ref):
    def prop(z):
        a = softmax_of(sub, z, -1)
        held = a[np.isneginf(z)]
        if not np.all(held == 0.0):
            floor = _floor(sub, a, held)
            CATALOGUE.fail(sub, f"called {call_text('softmax', z)}; got {show(a)}: entries that were -inf should be "
                                f"exactly 0.{floor}", FLOOR if floor else "")
        CATALOGUE.expect(sub, np.allclose(a.sum(axis=-1), 1.0),
                         f"called {call_text('softmax', z)}; rows of {show(a)} should sum to 1.")

    for_all(with_minus_inf(), prop, max_examples=25, examples=[np.array([[0.0, -INF]])])


def _floor(sub: Student, a, held) -> str:
    """The evidence of a floor under the weights, in words, or "": every -inf entry got the smallest
    weight of the result, and so do -inf and a finite entry far below the others, side by side."""
    low = float(a.min())
    if not (low > 0 and np.all(held == low)):
        return ""
    z = np.array([0.0, -INF, -50.0])
    w = array_aside(sub, "softmax", z, shape=z.shape)
    if w is None or not w[1] == w[2] > 0:
        return ""
    return (f" Each of them got {low:.3g}, the smallest weight of the result, and {call_text('softmax', z)} gave "
            f"{show(w)}, where e^-50 is about 2e-22.")


@check("stays finite and sums to 1 for entries as large as ±1e4", 1, uses=("softmax",))
def large_entries_finite(sub: Student, ref):
    # the last two: slices whose entries are all far below zero, where np.exp underflows to 0 unshifted
    for z in (np.array([[1e4, 0.0], [-1e4, -1e4 + 1.0]]), np.array([[1e4, 0.0, -1e4]]), np.array([1e4, 1e4]),
              np.array([-1e4, -1e4 + 1.0]), np.array([[-800.0, -801.0, -802.0]])):
        call = call_text("softmax", z)
        with overflow_raised(SHIFT):  # math.exp's OverflowError is the same mistake as an np.exp at inf
            out = CATALOGUE.call(sub, z)
        a = as_array(f"{call} returned an array that", out, shape=z.shape, finite=False)
        if not np.all(np.isfinite(a)):
            shifted = z - z.max(axis=-1, keepdims=True)  # shown only where it too is inside the stub's ±1e4
            inside = DOMAIN.outside("softmax", (shifted,), {}) is None
            b = array_aside(sub, "softmax", shifted, shape=z.shape) if inside else None
            seen = "" if b is None else (f", while {call_text('softmax', shifted)}, the same up to a constant in "
                                         f"each slice, gave {show(b)}.")
            CATALOGUE.fail(sub, f"called {call}; got {show(a)}, which is not finite{seen or '.'}",
                           SHIFT if seen else "")
        CATALOGUE.expect(sub, np.allclose(a.sum(axis=-1), 1.0),
                         f"called {call}; got {show(a)}, which does not sum to 1.")


@check("weights are in the ratio e^(z_i - z_j), along any axis", 1, uses=("softmax",))
def exponential_ratios(sub: Student, ref):
    def prop(case):
        z, axis = case
        a = softmax_of(sub, z, axis)
        call = call_text("softmax", z, axis=axis)
        CATALOGUE.expect(sub, np.all(a > 0), f"called {call}; got {show(a)}: e^z > 0, so the weight of every finite "
                                             "entry is above 0.")
        zs, ws = (np.moveaxis(x, axis, -1).reshape(-1, z.shape[axis]) for x in (z, a))
        off = np.log(ws) - zs  # constant along each slice when w_i / w_j = e^(z_i - z_j)
        spread = off.max(axis=1) - off.min(axis=1)
        s = int(np.argmax(spread))
        if spread[s] > 1e-7:
            i, j = int(np.argmax(off[s])), int(np.argmin(off[s]))
            CATALOGUE.expect(sub, False, f"called {call}; got {show(a)}. Along axis {axis}, the entries {zs[s, i]:.6g} "
                                         f"and {zs[s, j]:.6g} got weights in the ratio {ws[s, i] / ws[s, j]:.6g}, but "
                                         f"e^({zs[s, i]:.6g} - {zs[s, j]:.6g}) = {np.exp(zs[s, i] - zs[s, j]):.6g}.")

    for_all(array_and_axis(), prop, examples=[(np.array([[0.0, 1.0]]), -1), (np.array([[0.0, 1.0], [2.0, 5.0]]), 0)])


@check("leaves its input unchanged and returns a new array", 1, uses=("softmax",))
def input_unchanged(sub: Student, ref):
    z = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]])
    masked = np.array([[1.0, -INF, 3.0], [-INF, -1.0, 5.0]])
    earlier = None  # the call before, and its answer: z and masked have one shape, so a kept buffer shows
    for arr, axis in ((z, -1), (masked, -1), (z, 0), (masked[None], 2), (np.array([1e4, -1e4]), 0)):
        call = call_text("softmax", arr, axis=axis)
        out, changed = sub.call_full("softmax", arr, axis=axis)
        expect(not changed, f"{call} modified z in place; {IN_PLACE}")
        expect_new_array(call, changed, ("z",), earlier)
        earlier = (call, out)
