"""Grader for the attention exercise: the masks, then properties of (Y, A), then agreement."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .kit.checks import (Fail, as_array, as_bool_array, call_text, check, diagnose, expect,
                         expect_tuple, show)
from .kit.props import for_all
from .kit.strategies import floats, masks, permutations, qkv

TOL = 1e-9
N = 15  # examples per property: enough to find the mistakes below, fast to grade
SHRINK_CALLS = 40  # tries to simplify a counterexample before reporting the simplest one found
ALL = ("attention",)
X3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
TRI3 = np.tril(np.ones((3, 3), dtype=bool))


def _for_all(strategy, body, examples=()):
    """for_all with this grader's budget: few examples (pinned ones catch the usual mistakes) and a
    short shrink, since shrinking several arrays at once is slow."""
    for_all(strategy, body, max_examples=N, examples=examples, shrink_calls=SHRINK_CALLS)


def _attend(sub, q, k, v, mask=None):
    """Call the student's attention; validate (Y, A) and name the usual causes of a bad answer."""
    kw = {} if mask is None else {"mask": mask}
    call = call_text("attention", q, k, v, **kw)
    out = expect_tuple(call, 2, sub.call("attention", q, k, v, **kw))
    y_shape, a_shape = (q.shape[0], v.shape[1]), (q.shape[0], k.shape[0])
    shapes = tuple(getattr(x, "shape", None) for x in out)
    if shapes != (y_shape, a_shape) and shapes == (a_shape, y_shape):
        raise Fail(f"{call} returned arrays of shapes {shapes[0]} and {shapes[1]}: it looks like you "
                   f"returned (A, Y); the contract is (Y, A), the output first, then the weights")
    a = as_array(f"{call}: A (the second value)", out[1], shape=a_shape, finite=False)
    if mask is not None and np.isnan(a).any():
        nan = np.isnan(a)
        if nan.all(axis=1).any() and np.array_equal(nan.all(axis=1), mask.all(axis=1)):
            hint = ("NaN rows appear exactly where the mask is all True, so those rows had every score masked: "
                    "True means 'may attend', so block the scores where the mask is False")
        elif np.array_equal(nan.any(axis=0), ~mask.any(axis=0)):
            hint = ("NaN appears in the columns of keys that every query has masked: it looks like the "
                    "softmax runs over axis=0 (over the queries) instead of along each row")
        else:
            hint = "NaN comes from -inf - (-inf) or 0 / 0; mask the scores, then take the softmax of each row"
        raise Fail(f"{call} returned A = {show(a)}, which contains NaN although every row of the mask "
                   f"has a True. Hint: {hint}")
    a = as_array(f"{call}: A (the second value)", a, shape=a_shape)
    return as_array(f"{call}: Y (the first value)", out[0], shape=y_shape), a, call


@st.composite
def masked_case(draw):
    """(Q, K, V, mask, kind): a causal mask (self-attention), padded keys, or any mask."""
    kind = draw(st.sampled_from(("causal", "padding", "random")))
    q, k, v = draw(qkv(cross=kind != "causal"))
    n_q, n_k = q.shape[0], k.shape[0]
    if kind == "causal":
        mask = np.tril(np.ones((n_q, n_k), dtype=bool))
    elif kind == "padding":
        mask = np.broadcast_to(np.arange(n_k) < draw(st.integers(1, n_k)), (n_q, n_k)).copy()
    else:
        mask = draw(masks(n_q, n_k))
    return q, k, v, mask, kind


@check("causal_mask(n) is bool (n, n), True exactly where j <= i", 1, uses=("causal_mask",))
def causal_mask_correct(sub, ref):
    for n in (1, 2, 3, 5, 8):
        m = as_bool_array(f"causal_mask({n})", sub.call("causal_mask", n), shape=(n, n))
        i, j = np.indices((n, n))
        if not np.array_equal(m, j <= i):
            hint = diagnose(m, [
                ("the diagonal is missing: a token may attend to itself (j <= i, not j < i)", lambda: j < i),
                ("it looks like the upper triangle (np.triu): row i is the query, column j the key, and a "
                 "query may only see keys j <= i", lambda: j >= i),
                ("it looks like True marks the blocked future; here True means 'may attend'", lambda: j > i),
            ], atol=0)
            raise Fail(f"called causal_mask({n}); got\n{show(m)}\nwhich is not True exactly where "
                       f"key j <= query i (rows are queries)." + (f" Hint: {hint}." if hint else ""))


@check("padding_mask(n_valid, n) is bool (n, n), True exactly where key j < n_valid", 1, uses=("padding_mask",))
def padding_mask_correct(sub, ref):
    for n_valid, n in ((2, 3), (1, 4), (3, 5), (4, 4), (0, 2), (1, 1)):
        m = as_bool_array(f"padding_mask({n_valid}, {n})", sub.call("padding_mask", n_valid, n), shape=(n, n))
        i, j = np.indices((n, n))
        if not np.array_equal(m, j < n_valid):
            known = [("it looks like you switched off padded queries (rows); the padded positions are keys, "
                      "so whole columns j >= n_valid must be False", i < n_valid),
                     ("off by one: key j = n_valid is already padding", j <= n_valid),
                     ("it looks like True marks the padding; here True means 'may attend'", j >= n_valid)]
            if n_valid == n:  # nothing is padding; all False is the "[:, -0:] slice" mistake
                known = [("with n_valid == n nothing is padding, so every entry must be True (a slice like "
                          "[:, -(n - n_valid):] is [:, -0:], which selects every column)", j < 0)]
            hint = diagnose(m, [(msg, lambda w=w: w) for msg, w in known], atol=0)
            raise Fail(f"called padding_mask({n_valid}, {n}); got\n{show(m)}\nwhich is not True exactly "
                       f"where key j < {n_valid}." + (f" Hint: {hint}." if hint else ""))


@check("attention returns (Y, A) with the right shapes, for self- and cross-attention", 1, uses=ALL)
def shapes(sub, ref):
    rng = np.random.default_rng(7)
    for n_q, n_k, d_k, d_v in ((3, 3, 2, 5), (2, 4, 3, 1), (5, 2, 4, 3), (1, 1, 1, 1)):
        _attend(sub, *(rng.normal(size=s).round(2) for s in ((n_q, d_k), (n_k, d_k), (n_k, d_v))))


def _row_sums(sub, q, k, v, mask=None):
    y, a, call = _attend(sub, q, k, v, mask)
    expect(np.all(a >= 0), f"called {call}; A = {show(a)} has negative weights")
    rows = a.sum(axis=1)
    if not np.allclose(rows, 1.0, rtol=0, atol=TOL):
        if np.allclose(a.sum(axis=0), 1.0, atol=TOL):
            hint = "the columns of A sum to 1: it looks like the softmax runs over axis=0 (over the queries)"
        elif mask is not None and np.all(a[~mask] == 0) and np.all(rows <= 1 + TOL):
            hint = ("it looks like the masked weights are set to 0 after the softmax, without renormalising; "
                    "mask the scores (to -inf) before the softmax")
        else:
            hint = "divide the exponentials of each row by that row's sum"
        raise Fail(f"called {call}; got A = {show(a)}: each row of A should sum to 1, but one row sums to "
                   f"{rows[int(np.argmax(np.abs(rows - 1.0)))]:.6g}. Hint: {hint}.")


@check("each row of A is a probability distribution (>= 0, sums to 1)", 1, uses=ALL)
def rows_stochastic(sub, ref):
    _for_all(qkv(), lambda c: _row_sums(sub, *c), examples=[(X3[:2] * [1, 2], X3, np.eye(3)[:, :2])])


@check("with a mask, each row of A still sums to 1", 1, uses=ALL)
def rows_stochastic_masked(sub, ref):
    ex = (np.eye(3)[:, :2], np.eye(3)[:, :2] * 2, np.arange(6.0).reshape(3, 2), TRI3, "causal")
    _for_all(masked_case(), lambda c: _row_sums(sub, *c[:4]), examples=[ex])


@check("masked weights are exactly 0 (causal, padding and any mask)", 1, uses=ALL)
def masked_exactly_zero(sub, ref):
    def prop(case):
        q, k, v, mask, kind = case
        y, a, call = _attend(sub, q, k, v, mask)
        if np.any(a[~mask] != 0.0):
            if np.all(a[mask] == 0.0) and mask.any() and (~mask).any():
                hint = "the weights are 0 where the mask is True: True means 'may attend', False means blocked"
            else:
                hint = ("set masked scores to -inf (or a large negative number) before the softmax; "
                        "multiplying the scores by the mask or setting them to 0 leaves those keys a weight")
            raise Fail(f"called {call} (a {kind} mask); got A = {show(a)}: where the mask is False "
                       f"the weight must be exactly 0. Hint: {hint}.")

    q = np.array([[0.5, 1.0], [1.0, -1.0], [2.0, 0.0]])
    _for_all(masked_case(), prop, examples=[(q, q, q, TRI3, "causal")])


@st.composite
def future_change(draw):
    """Self-attention inputs, a position i, and the same inputs with every token after i redrawn."""
    q, k, v = draw(qkv(cross=False).filter(lambda c: c[0].shape[0] >= 2))
    i = draw(st.integers(0, q.shape[0] - 2))
    new = tuple(np.concatenate([x[: i + 1], draw(hnp.arrays(np.float64, x[i + 1:].shape, elements=floats(3.0)))])
                for x in (q, k, v))
    return (q, k, v), new, i


@check("with a causal mask, output row i ignores the tokens after i", 1, uses=ALL)
def causal_no_future(sub, ref):
    def prop(case):
        (q, k, v), (q2, k2, v2), i = case
        mask = np.tril(np.ones((q.shape[0],) * 2, dtype=bool))
        y, _, call = _attend(sub, q, k, v, mask)
        y2, _, _ = _attend(sub, q2, k2, v2, mask)
        if not np.allclose(y[: i + 1], y2[: i + 1], rtol=TOL, atol=TOL):
            raise Fail(f"called {call}\nand again with rows {i + 1}.. of Q, K, V changed to {show(q2[i + 1:])}, "
                       f"{show(k2[i + 1:])}, {show(v2[i + 1:])}; rows 0..{i} of Y changed from "
                       f"{show(y[:i + 1])} to {show(y2[:i + 1])}, so an earlier token saw the future. "
                       f"Masked keys must get weight exactly 0")

    k2, v2 = np.array([[1.0, 0.0], [2.0, -1.0], [-1.0, 3.0]]), np.array([[1.0, 0.0], [3.0, -2.0], [0.5, 4.0]])
    _for_all(future_change(), prop, examples=[((X3, X3, X3), (X3, k2, v2), 0)])  # row 0 kept, rows 1.. changed


@check("Y equals A @ V for the A you return", 1, uses=ALL)
def y_is_av(sub, ref):
    def prop(case):
        q, k, v, mask = case
        y, a, call = _attend(sub, q, k, v, mask)
        if not np.allclose(y, a @ v, rtol=TOL, atol=TOL):
            raise Fail(f"called {call}; got Y = {show(y)} and A = {show(a)}, but Y should be A @ V = "
                       f"{show(a @ v)} (the weights you return must be the ones you use)")

    cases = st.one_of(qkv().map(lambda c: (*c, None)), masked_case().map(lambda c: c[:4]))
    _for_all(cases, prop, examples=[(X3, X3, X3, None)])


@check("each entry of Y lies within the range of its column of V", 1, uses=ALL)
def y_in_range(sub, ref):
    def prop(case):
        q, k, v = case
        y, a, call = _attend(sub, q, k, v)
        lo, hi = v.min(axis=0), v.max(axis=0)
        slack = TOL * (1 + np.abs(v).max())
        bad = (y < lo - slack) | (y > hi + slack)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise Fail(f"called {call}; Y[{r}, {c}] = {y[r, c]:.6g} lies outside [{lo[c]:.6g}, {hi[c]:.6g}], "
                       f"the range of column {c} of V. Each output is a weighted average of the values "
                       f"(weights >= 0 summing to 1), so it cannot leave that range")

    _for_all(qkv(), prop, examples=[(X3[:1], np.eye(2), np.array([[1.0], [2.0]]))])


@st.composite
def permuted_case(draw):
    q, k, v = draw(qkv())
    mask = draw(st.one_of(st.none(), masks(q.shape[0], k.shape[0])))
    return q, k, v, mask, draw(permutations(q.shape[0])), draw(permutations(k.shape[0]))


@check("permuting queries permutes Y and A; permuting keys with values leaves Y unchanged", 1, uses=ALL)
def permutations_respected(sub, ref):
    def prop(case):
        q, k, v, mask, pq, pk = case
        close = lambda x, z: np.allclose(x, z, rtol=TOL, atol=TOL)  # noqa: E731
        y, a, call = _attend(sub, q, k, v, mask)
        y2, a2, call2 = _attend(sub, q[pq], k, v, None if mask is None else mask[pq])
        if not (close(y2, y[pq]) and close(a2, a[pq])):
            raise Fail(f"called {call}\nand {call2}\n(the queries reordered by {list(pq)}); the rows of Y and A "
                       f"should be reordered the same way, but got Y = {show(y)} and then {show(y2)}")
        y3, a3, call3 = _attend(sub, q, k[pk], v[pk], None if mask is None else mask[:, pk])
        if not (close(y3, y) and close(a3, a[:, pk])):
            raise Fail(f"called {call}\nand {call3}\n(keys and values reordered together by {list(pk)}); "
                       f"Y should stay the same and the columns of A follow the keys, but got Y = {show(y)} "
                       f"and then {show(y3)}")

    mask = np.array([[True, False, True], [True, True, False], [False, True, False]])
    _for_all(permuted_case(), prop, examples=[(X3, X3 * 2, X3[:, :1], mask, np.array([2, 0, 1]), np.array([1, 2, 0]))])


@check("attention leaves Q, K, V and the mask unchanged", 1, uses=ALL)
def inputs_unchanged(sub, ref):
    q = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    for args in ((q, q[::-1].copy(), X3[:, :1]), (q, q[::-1].copy(), X3[:, :1], TRI3)):
        _, changed = sub.call_full("attention", *args)
        names = ", ".join(("Q", "K", "V", "mask")[i] for i in changed)
        expect(not changed, f"{call_text('attention', *args)} modified {names} in place; work on new arrays "
                            f"(q / s makes a new array, q /= s changes the caller's)")


# d_k = 4, N_k = 3, d_v = 2: no scaling, d_k, √d_k, √d_v and √N_k all differ, so each mistake is named
