"""Grader for the online_softmax exercise: public checks. See docs/writing-a-grader.md.

online_softmax(z, block) must give the softmax along the last axis for every block size: the
checks test its laws (rows sum to 1, ratios e^(z_i - z_j), finite for scores of ±1e4, masked
scores at exactly 0 even when a whole block is masked) on every block size from 1 to past n.
rescale_factor(m_old, m_new) is an exact SymPy value: the public check tests it by the law it
stands for, e^(z - m_old) times it is e^(z - m_new); the hidden checks compare both functions
with the reference (graders/hidden/online_softmax.py).
"""

import cmath

import numpy as np

from .kit import (Catalogue, Domain, Mistake, NO_SHIFT, Outcome, Student, advice, array_aside, arrays_any_rank,
                  as_array, call_text, check, entries_within, expect, expect_new_array, fail, float_born, for_all,
                  module, overflow, overflow_raised, show, st, to_expr)

sp = module("sympy")  # imported at first use (kit/lazy.py)

INF = np.inf
FILL = -1e9  # a masked score as the tutorials fill it; the stub promises it as well as -inf
FACTOR_LIMIT = 100  # rescale_factor's m_old, m_new: whole numbers within ±100


def _scores(z, block=1) -> str | None:
    """What lies outside online_softmax's promise: z of shape (n,) or (rows, n), entries within ±1e4 or
    masked (-inf or -1e9), a score that is not masked in every row; block an int >= 1."""
    if not isinstance(block, int) or isinstance(block, bool) or block < 1:
        return f"a block of {block!r}, not an int >= 1"
    z = np.array(z, dtype=float)
    if z.ndim not in (1, 2) or z.shape[-1] < 1:
        return f"an array of shape {z.shape}, not (n,) or (rows, n)"
    masked = np.isneginf(z) | (z == FILL)
    why = entries_within(np.where(masked, 0.0, z))
    if why:
        return why
    return None if (~masked).any(axis=-1).all() else "a row whose scores are all masked"


def _whole(m_old, m_new) -> str | None:
    for m in (m_old, m_new):
        if not isinstance(m, int) or isinstance(m, bool) or abs(m) > FACTOR_LIMIT:
            return f"{m!r}, not a whole number within ±{FACTOR_LIMIT}"
    return None if m_old <= m_new else f"m_old = {m_old} above m_new = {m_new}"


# What the stub promises (kit/domain.py).
DOMAIN = Domain({
    "online_softmax": ("z of shape (n,) or (rows, n), scores within ±1e4 or masked (-inf or -1e9), a score "
                       "that is not masked in every row; block an int >= 1", _scores),
    "rescale_factor": (f"whole numbers m_old <= m_new within ±{FACTOR_LIMIT}", _whole),
})
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
IN_PLACE = advice("work on a copy (z - m makes a new array, z -= m or z[...] = ... does not)")
SHIFT = overflow("the running maximum")
MASKED_BLOCK = advice("With -1e9 in place of each -inf the same call was finite: in a block where every score "
                      "is -inf, the maximum is -inf too, and -inf - (-inf) is nan. Where the running "
                      "maximum is still -inf, nothing has been seen yet: the factor and the block's terms are 0")


# ------------------------------------------------------------------ known mistakes
def online(z, block, rescale="right", shift=True, tail=True, per_block=False, normalise=True, guard=True):
    """A model of the online softmax with one knob per known mistake: ``rescale`` of the running sum,
    "right" (e^(m_old - m_new)), "none" or "wrong" (e^(m_new - m_old), running values started from the
    first block); ``shift``: by the running maximum; ``tail``: the last, shorter block read;
    ``per_block``: each block normalised on its own; ``normalise``: divided by the running sum;
    ``guard``: a running maximum of -inf taken as 0 in the exponents."""
    scores = np.array(z, dtype=float)
    width = scores.shape[-1]
    edges = [(lo, lo + block) for lo in range(0, width, block) if tail or lo + block <= width]
    if per_block:
        parts = [np.exp(scores[..., a:b] - np.max(scores[..., a:b], -1, keepdims=True)) for a, b in edges]
        return np.concatenate([w / np.sum(w, -1, keepdims=True) for w in parts], axis=-1)
    top = np.full(scores.shape[:-1] + (1,), -INF if shift else 0.0)
    total = np.zeros_like(top)
    for k, (a, b) in enumerate(edges):
        new_top = np.fmax(top, np.max(scores[..., a:b], -1, keepdims=True)) if shift else top
        base = np.where(new_top == -INF, 0.0, new_top) if guard else new_top
        carry = {"right": lambda: np.exp(top - base), "none": lambda: 1.0,
                 "wrong": lambda: np.exp(base - top) if k else 0.0}[rescale]()
        total = total * carry + np.sum(np.exp(scores[..., a:b] - base), -1, keepdims=True)
        top = new_top
    return np.exp(scores - top) / (total if normalise else 1.0)


MISTAKES = (
    Mistake("the running sum is not rescaled when the maximum grows: the terms added before were taken "
            "against the old maximum, so multiply the sum by the rescaling factor before adding a block",
            lambda z, block: online(z, block, rescale="none"), {"rescale": "none"}),
    Mistake("the running sum is rescaled the wrong way round, by e^(m_new - m_old): when the maximum grows, "
            "the terms taken against the old maximum must shrink",
            lambda z, block: online(z, block, rescale="wrong"), {"rescale": "wrong"}),
    Mistake(NO_SHIFT, lambda z, block: online(z, block, shift=False), {"shift": False}),
    Mistake("the last, shorter block is never read when block does not divide n: the loop over the blocks "
            "stops one block early",
            lambda z, block: online(z, block, tail=False), {"tail": False}),
    Mistake("each block is normalised on its own, so each block sums to 1, not each row",
            lambda z, block: online(z, block, per_block=True), {"per_block": True}),
    Mistake("the weights are not divided by the running sum: e^(z - m) is the numerator of the softmax only",
            lambda z, block: online(z, block, normalise=False), {"normalise": False}),
    Mistake("a block where every score is -inf gives nan: its maximum is -inf, and -inf - (-inf) is nan",
            lambda z, block: online(z, block, guard=False), {"guard": False}),
)

# Inputs that tell the mistakes apart: the maximum grows after the first block, a short last block
# whose score is the largest, scores of 1e4, and a first block that is masked entirely.
PROBES = tuple(((z, block), {}) for z, block in (
    (np.array([[0.0, 1.0, 3.0, 2.0, 4.0], [2.0, -1.0, 0.5, 1.0, -2.0]]), 2),
    (np.array([0.5, 1.0, 2.0, 3.0]), 3),
    (np.array([[1e4, 0.0, 1.0], [0.0, 1.0, 1e4]]), 1),
    (np.array([[-INF, -INF, 1.0, 2.0], [0.0, 1.0, -INF, -INF]]), 2),
))
CATALOGUE = Catalogue("online_softmax", PROBES, MISTAKES, read=lambda out: as_array("the result", out, finite=False),
                      combine=lambda parts: lambda z, block: online(z, block, **parts))  # two mistakes at once


# ------------------------------------------------------------------ calling the student
def weights_of(sub: Student, z, block):
    """The student's online_softmax(z, block), validated: an array of z's shape, not necessarily finite."""
    out = CATALOGUE.call(sub, z, block)
    with CATALOGUE.reworded(sub):
        return as_array(f"{call_text('online_softmax', z, block)} returned an array that", out, shape=z.shape,
                        finite=False)


@st.composite
def scores_and_block(draw, bound=30.0):
    """(z, block): z of shape (n,) or (rows, n) with n up to 7, and a block from 1 to n + 1."""
    z = draw(arrays_any_rank(max_dims=2, max_side=7, bound=bound))
    return z, draw(st.integers(1, z.shape[-1] + 1))


# The maximum grows after the first block, and the last block is shorter (and holds the largest score).
GROWS = (np.array([[0.0, 1.0, 3.0, 2.0, 4.0], [2.0, -1.0, 0.5, 1.0, -2.0]]), 2)
TAIL = (np.array([0.5, 1.0, 2.0, 3.0]), 3)


# ------------------------------------------------------------------ public checks
@check("online_softmax returns a float64 array of z's shape, block given by position or by name", 1,
       uses=("online_softmax",))
def shape_and_dtype(sub: Student, ref):
    z = np.array([[0.0, 1.0, 2.0, 0.5, -1.0], [3.0, 3.0, 3.0, 1.0, 0.0]])
    out = CATALOGUE.call(sub, z, 2)
    as_array(f"{call_text('online_softmax', z, 2)} returned an array that", out, shape=z.shape, finite=False)
    expect(out.dtype == np.float64, f"{call_text('online_softmax', z, 2)} returned dtype {out.dtype}; return float64")
    by_name = as_array(f"{call_text('online_softmax', z, block=2)} returned an array that",
                       sub.call("online_softmax", z, block=2), shape=z.shape, finite=False)
    expect(np.array_equal(out, by_name, equal_nan=True),
           f"{call_text('online_softmax', z, 2)} gave {show(out)}, but {call_text('online_softmax', z, block=2)} "
           f"gave {show(by_name)}: block given by name is the same block as given by position")


@check("every row sums to 1, for every block size", 2, uses=("online_softmax",))
def sums_to_one(sub: Student, ref):
    def prop(case):
        z, block = case
        a = weights_of(sub, z, block)
        total = a.sum(axis=-1)
        worst = np.ravel(total)[int(np.argmax(np.ravel(np.abs(total - 1.0))))] if np.isfinite(total).all() else \
            np.ravel(total)[int(np.argmin(np.ravel(np.isfinite(total))))]
        CATALOGUE.expect(sub, np.allclose(total, 1.0, atol=1e-9),
                         f"called {call_text('online_softmax', z, block)}; got {show(a)}: the weights of each "
                         f"row should sum to 1, whatever the block size, but one row sums to {worst:.6g}.",
                         case=((z, block), {}, a))

    for_all(scores_and_block(), prop, examples=[GROWS, TAIL, (np.array([1.0, 2.0, 3.0]), 1)])


@check("weights are in the ratio e^(z_i - z_j), across blocks too", 1, uses=("online_softmax",))
def exponential_ratios(sub: Student, ref):
    def prop(case):
        z, block = case
        a = weights_of(sub, z, block)
        call = call_text("online_softmax", z, block)
        if not (np.isfinite(a).all() and np.all(a > 0)):
            CATALOGUE.fail(sub, f"called {call}; got {show(a)}: e^z > 0 is finite, so the weight of every score is "
                                f"a finite number above 0.")
        zs, ws = z.reshape(-1, z.shape[-1]), a.reshape(-1, z.shape[-1])
        off = np.log(ws) - zs  # constant along each row when w_i / w_j = e^(z_i - z_j)
        spread = off.max(axis=1) - off.min(axis=1)
        r = int(np.argmax(spread))
        if spread[r] > 1e-7:
            i, j = int(np.argmax(off[r])), int(np.argmin(off[r]))
            CATALOGUE.fail(sub, f"called {call}; got {show(a)}. In one row, the scores {zs[r, i]:.6g} and "
                                f"{zs[r, j]:.6g} (entries {i} and {j}) got weights in the ratio "
                                f"{ws[r, i] / ws[r, j]:.6g}, but e^({zs[r, i]:.6g} - {zs[r, j]:.6g}) = "
                                f"{np.exp(zs[r, i] - zs[r, j]):.6g}, whichever blocks they are in.")

    for_all(scores_and_block(), prop, examples=[GROWS])


@check("stays finite and sums to 1 for scores as large as ±1e4", 1, uses=("online_softmax",))
def large_scores_finite(sub: Student, ref):
    for z, block in ((np.array([[1e4, 0.0, 1.0], [0.0, 1.0, 1e4]]), 1), (np.array([1e4, 1e4, -1e4]), 2),
                     (np.array([[-1e4, -1e4 + 1.0, -1e4 + 2.0]]), 2), (np.array([[-800.0, -801.0, -799.0]]), 3)):
        call = call_text("online_softmax", z, block)
        with overflow_raised(SHIFT):  # math.exp's OverflowError is the same mistake as an np.exp at inf
            a = weights_of(sub, z, block)
        if not np.all(np.isfinite(a)):
            shifted = z - z.max(axis=-1, keepdims=True)  # the same softmax, scores at most 0
            b = array_aside(sub, "online_softmax", shifted, block, shape=z.shape)
            seen = "" if b is None else (f", while {call_text('online_softmax', shifted, block)}, the same up to a "
                                         f"constant in each row, gave {show(b)}.")
            CATALOGUE.fail(sub, f"called {call}; got {show(a)}, which is not finite{seen or '.'}",
                           SHIFT if seen else "", case=((z, block), {}, a))
        CATALOGUE.expect(sub, np.allclose(a.sum(axis=-1), 1.0),
                         f"called {call}; got {show(a)}, which does not sum to 1 in each row.",
                         case=((z, block), {}, a))


@st.composite
def masked_scores(draw):
    """(z, block): rows with some scores masked (-inf or -1e9), never all of one row, often a whole block."""
    z, block = draw(scores_and_block(bound=5.0).filter(lambda c: c[0].shape[-1] >= 2))
    n = z.shape[-1]
    rows = z.reshape(-1, n).copy()
    fill = draw(st.sampled_from([-INF, FILL]))
    for row in rows:
        keep = draw(st.integers(0, n - 1))  # this score stays: the row has one
        first = draw(st.sampled_from([0, min(block, n - 1)]))  # a whole first block masked, or none of it
        hole = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        hole[:first] = True
        hole[keep] = False
        row[hole] = fill
    return rows.reshape(z.shape), block


# Causal rows (row i sees scores 0..i) cut in blocks of 2: the first block of the last rows is masked.
CAUSAL = np.where(np.tril(np.ones((4, 4), dtype=bool))[::-1], np.array([[0.5, 2.0, -1.0, 1.0]] * 4), -INF)


@check("masked scores (-inf or -1e9) get weight exactly 0, even in a block masked entirely", 2,
       uses=("online_softmax",))
def masked_scores_are_zero(sub: Student, ref):
    def prop(case):
        z, block = case
        a = weights_of(sub, z, block)
        call = call_text("online_softmax", z, block)
        masked = np.isneginf(z) | (z == FILL)
        if not np.isfinite(a).all():
            filled = np.where(np.isneginf(z), FILL, z)
            b = array_aside(sub, "online_softmax", filled, block, shape=z.shape) if np.isneginf(z).any() else None
            seen = "" if b is None else f", while {call_text('online_softmax', filled, block)} gave {show(b)}."
            CATALOGUE.fail(sub, f"called {call}; got {show(a)}, which is not finite{seen or '.'}",
                           MASKED_BLOCK if seen else "", case=((z, block), {}, a))
        CATALOGUE.expect(sub, np.all(a[masked] == 0.0),
                         f"called {call}; got {show(a)}: the masked scores should get weight exactly 0.",
                         case=((z, block), {}, a))
        CATALOGUE.expect(sub, np.allclose(a.sum(axis=-1), 1.0, atol=1e-9),
                         f"called {call}; got {show(a)}: each row should sum to 1.", case=((z, block), {}, a))

    for_all(masked_scores(), prop, max_examples=30,
            examples=[(CAUSAL, 2), (np.where(CAUSAL == -INF, FILL, CAUSAL), 2), (np.array([-INF, -INF, 1.0]), 1)])


@check("leaves z unchanged and returns a new array", 1, uses=("online_softmax",))
def input_unchanged(sub: Student, ref):
    z = np.array([[1.0, 2.0, 3.0, 0.0], [0.0, -1.0, 5.0, 2.0]])
    masked = np.array([[-INF, -INF, 3.0, 1.0], [FILL, -1.0, 5.0, FILL]])
    earlier = None  # the call before, and its answer: a kept buffer shows
    for arr, block in ((z, 2), (masked, 2), (z, 3), (masked, 1), (np.array([1e4, -1e4]), 1)):
        call = call_text("online_softmax", arr, block)
        out, changed = sub.call_full("online_softmax", arr, block)
        expect(not changed, f"{call} modified z in place; {IN_PLACE}")
        expect_new_array(call, changed, ("z", "block"), earlier)
        earlier = (call, out)


# ------------------------------------------------------------------ rescale_factor
FACTOR_CASES = ((2, 5), (0, 0), (-3, 4), (-7, -7), (1, 2))
FACTOR_MISTAKES = (  # each with its model: the value that mistake gives for (m_old, m_new)
    Mistake("the factor is the wrong way round, e^(m_new - m_old): when the maximum grows, the terms taken "
            "against the old maximum must shrink", lambda a, b: float(np.exp(b - a))),
    Mistake("the exponent m_old - m_new is given, not e to its power", lambda a, b: float(a - b)),
)


def factor_of(sub: Student, m_old, m_new):
    """The student's rescale_factor(m_old, m_new) as a SymPy number, or Fail saying why it is not one."""
    call = call_text("rescale_factor", m_old, m_new)
    expr, why = to_expr(sub.call("rescale_factor", m_old, m_new), {})
    if expr is None:
        fail(f"{call}: {why}")
    if expr.free_symbols:
        fail(f"{call}: you gave {sp.sstr(expr)}, which uses {', '.join(sorted(s.name for s in expr.free_symbols))}; "
             f"the factor is a number: build it from m_old and m_new")
    try:
        value = complex(expr.evalf(30))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        value = complex("nan")
    if not cmath.isfinite(value) or abs(value.imag) > 1e-12:
        fail(f"{call}: you gave {sp.sstr(expr)}, which is not a finite real number")
    return expr, value.real


def _follows(sub: Student, mistake) -> bool:
    """Whether the student's rescale_factor gives that mistake's value at every case (a hint on evidence)."""
    for m_old, m_new in FACTOR_CASES:
        _, value = factor_of(sub, m_old, m_new)
        wrong = mistake.model(m_old, m_new)
        if abs(value - wrong) > 1e-9 * max(1.0, abs(wrong)):
            return False
    return True


@check("rescale_factor is exact, and e^(z - m_old) times it is e^(z - m_new)", 1, uses=("rescale_factor",))
def factor_rescales(sub: Student, ref):
    inexact = []
    for m_old, m_new in FACTOR_CASES:
        call = call_text("rescale_factor", m_old, m_new)
        expr, value = factor_of(sub, m_old, m_new)
        law = float(np.exp(m_old - m_new))
        if abs(value - law) > 1e-9 * law:
            known = [m for m in FACTOR_MISTAKES if _follows(sub, m)]
            fail(f"{call}: you gave {sp.sstr(expr)} (about {value:.6g}). A term e^(z - {m_old}) multiplied by it "
                 f"should give e^(z - {m_new}) for every z, which it does not (take z = {m_new})."
                 + (f" {known[0].hint}" if len(known) == 1 else ""))
        if expr.atoms(sp.Float) or float_born(expr):
            inexact.append(f"{call} = {sp.sstr(expr)}")
    if inexact:
        fail(f"{'; '.join(inexact)}: numerically right, but an exact form is expected: a SymPy value "
             f"(sympy.exp of a whole number), not a float from math.exp or np.exp", 0.5, Outcome.PARTIAL)
