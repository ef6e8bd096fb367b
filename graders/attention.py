"""Grader for the attention exercise: the masks, then properties of (Y, A), then agreement."""

import numpy as np

from .kit import (SCORE_LIMIT, Catalogue, Domain, Fail, Mistake, StudentError, advice, as_array, as_bool_array, aside,
                  attend, call_text, check, expect, expect_tuple, fail, for_all, future_change, masked_case, overflow,
                  overflow_raised, permuted_case, qkv, scores_within, show, st)

TOL = 1e-9
# What the stub promises (kit/domain.py): scores that "run into the thousands", so a masked score
# filled with -1e9, as the tutorials do, is as good as -inf.
DOMAIN = Domain({"attention": ("scores Q Kᵀ / √d_k that run into the thousands",
                               lambda q, k, v, mask=None: scores_within(q, k))})
N = 15  # examples per property: enough to find the mistakes below, fast to grade
SHRINK_CALLS = 40  # tries to simplify a counterexample before reporting the simplest one found
ALL = ("attention",)
X3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
TRI3 = np.tril(np.ones((3, 3), dtype=bool))
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
SWAPPED = advice("return (Y, A), the output first, then the weights")
OVERFLOW = overflow("each row's maximum score")
IN_PLACE = advice("work on new arrays (q / s makes a new array, q /= s changes the caller's)")


# ------------------------------------------------------------------ known mistakes
def _combined(parts):
    """attention() with the mistakes ``parts`` name switched on: a wrong size to divide by (√size(Q, K, V)
    instead of √d_k), a wrong masking, a wrong normalisation, one or several at once."""
    size, knobs = parts.get("divide_by"), {k: v for k, v in parts.items() if k != "divide_by"}
    return lambda q, k, v, mask=None: attend(q, k, v, mask, divide_by=size and size(q, k, v), **knobs)


def _mistake(says, size=None, **variant):
    """A mistake of attention(): the scores divided by √size(Q, K, V) instead of √d_k, or ``variant``."""
    parts = {"divide_by": size} if size else variant
    return Mistake(says, _combined(parts), parts)


MISTAKES = (
    _mistake("the scores are not divided by √d_k", lambda q, k, v: 1),
    _mistake("the scores are divided by d_k instead of √d_k", lambda q, k, v: q.shape[1] ** 2),
    _mistake("the scores are divided by √d_v (the width of V) instead of √d_k (the width of Q and K)",
             lambda q, k, v: v.shape[1]),
    _mistake("the scores are divided by the square root of the number of keys instead of √d_k",
             lambda q, k, v: k.shape[0]),
    _mistake("the softmax runs over axis=0 (over the queries) instead of along each row (over the keys)",
             norm="columns"),
    _mistake("the weights are normalised over the whole matrix instead of along each row", norm="whole"),
    _mistake("each row's maximum is subtracted, but the exponentials are divided by the sum of the whole "
             "matrix: divide each row by its own sum (keepdims=True)", norm="rows, whole sum"),
    _mistake("the weights are exp(scores) without dividing each row by its sum", norm="none"),
    _mistake("the masked weights are set to 0 after the softmax, without renormalising: mask the scores "
             "(to -inf) before the softmax", masking="after"),
    _mistake("True in the mask is taken as 'blocked'; here True means 'may attend', so block the scores where "
             "the mask is False", masking="inverted"),
    _mistake("masked scores are made 0 (multiplied by the mask, or set to 0) instead of -inf, so masked keys "
             "keep a weight", masking="times"),
    _mistake("the mask is ignored", masking="ignored"),
)
# N_q = 2 != N_k = 3, d_k = 4 != d_v = 2, a mask that is not symmetric, and a causal one: no scaling, d_k,
# √d_k, √d_v and √N_k all differ, and so does every way of masking and normalising above.
Q2 = np.array([[1.0, 0.5, -0.5, 1.0], [0.0, 1.0, 1.0, -1.0]])
K3 = np.array([[1.0, 0.0, 1.0, 0.5], [0.5, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.5, 0.0]])
V3 = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])
Q3 = np.array([[0.5, 1.0, 0.0, -1.0], [1.0, -1.0, 2.0, 0.0], [2.0, 0.0, -0.5, 1.0]])
PROBES = (((Q2, K3, V3), {}), ((Q2, K3, V3), {"mask": np.array([[True, False, True], [False, True, True]])}),
          ((Q3, K3, V3), {"mask": TRI3}))


def _read(out):
    y, a = expect_tuple("attention", 2, out)
    return as_array("Y", y, finite=False), as_array("A", a, finite=False)


CATALOGUE = Catalogue("attention", PROBES, MISTAKES, read=_read, combine=_combined)


def _masks(*pairs):
    return tuple(Mistake(says, lambda *args, f=f: f(*np.indices((args[-1], args[-1])), *args)) for says, f in pairs)


CAUSAL = Catalogue("causal_mask", (((3,), {}), ((5,), {})), _masks(
    ("the diagonal is missing: a token may attend to itself (j <= i, not j < i)", lambda i, j, n: j < i),
    ("the mask is off by one: row i also sees key i + 1 (True exactly where j <= i)", lambda i, j, n: j <= i + 1),
    ("the upper triangle (np.triu): row i is the query, column j the key, and a query may only see keys "
     "j <= i", lambda i, j, n: j >= i),
    ("True marks the blocked future; here True means 'may attend'", lambda i, j, n: j > i),
), read=lambda m: as_array("the mask", m))
PADDING = Catalogue("padding_mask", (((2, 4), {}), ((4, 4), {}), ((1, 3), {})), _masks(
    ("the padded queries (rows) are switched off; the padded positions are keys, so whole columns "
     "j >= n_valid must be False", lambda i, j, n_valid, n: i < n_valid),
    ("the mask is off by one: key j = n_valid is already padding", lambda i, j, n_valid, n: j <= n_valid),
    ("True marks the padding; here True means 'may attend'", lambda i, j, n_valid, n: j >= n_valid),
    ("the padding is cleared with a slice like [:, -(n - n_valid):], which is [:, -0:], every column, when "
     "n_valid == n", lambda i, j, n_valid, n: j < n_valid if n_valid < n else j < 0),
), read=lambda m: as_array("the mask", m))


def quick_for_all(strategy, body, examples=()):
    """for_all with this grader's budget: few examples (pinned ones catch the usual mistakes) and a
    short shrink, since shrinking several arrays at once is slow."""
    for_all(strategy, body, max_examples=N, examples=examples, shrink_calls=SHRINK_CALLS)


def attention_of(sub, q, k, v, mask=None):
    """Call the student's attention; validate (Y, A)."""
    kw = {} if mask is None else {"mask": mask}
    call = call_text("attention", q, k, v, **kw)
    out = expect_tuple(call, 2, sub.call("attention", q, k, v, **kw))
    y_shape, a_shape = (q.shape[0], v.shape[1]), (q.shape[0], k.shape[0])
    shapes = tuple(getattr(x, "shape", None) for x in out)
    if shapes != (y_shape, a_shape) and shapes == (a_shape, y_shape):
        fail(f"{call} returned arrays of shapes {shapes[0]} and {shapes[1]}, which are the shapes of A and "
             f"Y, in that order: {SWAPPED}")
    a = as_array(f"{call}: A (the second value)", out[1], shape=a_shape, finite=False)
    if mask is not None and np.isnan(a).any():
        CATALOGUE.fail(sub, f"{call} returned A = {show(a)}, which contains NaN although every row of the mask has a "
                            "True: each row of A should be a probability distribution over the keys it may see.",
                       case=((q, k, v), kw, out))
    a = as_array(f"{call}: A (the second value)", a, shape=a_shape)
    return as_array(f"{call}: Y (the first value)", out[0], shape=y_shape), a, call


def _mask_check(sub, catalogue, args, want, what):
    call = call_text(catalogue.func, *args)
    m = as_bool_array(call, sub.call(catalogue.func, *args), shape=want.shape)
    if not np.array_equal(m, want):
        if len(want) <= 8:
            catalogue.fail(sub, f"called {call}; got\n{show(m)}\nwhich is not True exactly where {what}.")
        i, j = (int(x) for x in np.argwhere(m != want)[0])  # too large to show: the first entry that is wrong
        catalogue.fail(sub, f"called {call}; entry [{i}, {j}] is {bool(m[i, j])}, but it should be {bool(want[i, j])}: "
                            f"True exactly where {what}, however large n is.")


@check("causal_mask(n) is bool (n, n), True exactly where j <= i", 1, uses=("causal_mask",))
def causal_mask_correct(sub, ref):
    for n in (1, 2, 3, 5, 8, 64, 700):  # far past any buffer a mask might be sliced from
        i, j = np.indices((n, n))
        _mask_check(sub, CAUSAL, (n,), j <= i, "key j <= query i (rows are queries)")


@check("padding_mask(n_valid, n) is bool (n, n), True exactly where key j < n_valid", 1, uses=("padding_mask",))
def padding_mask_correct(sub, ref):
    for n_valid, n in ((2, 3), (1, 4), (3, 5), (4, 4), (0, 2), (1, 1), (250, 700)):
        i, j = np.indices((n, n))
        _mask_check(sub, PADDING, (n_valid, n), j < n_valid, f"key j < {n_valid} (columns are keys)")


@check("attention returns (Y, A) with the right shapes, for self- and cross-attention, mask by position or by name",
       0.5, uses=ALL)
def shapes(sub, ref):
    rng = np.random.default_rng(7)
    for n_q, n_k, d_k, d_v in ((3, 3, 2, 5), (2, 4, 3, 1), (5, 2, 4, 3), (1, 1, 1, 1)):
        attention_of(sub, *(rng.normal(size=s).round(2) for s in ((n_q, d_k), (n_k, d_k), (n_k, d_v))))
    # attention(Q, K, V, mask=None) takes the mask by position too, as its signature says
    y, a, call = attention_of(sub, Q2, K3, V3, PROBES[1][1]["mask"])
    by_position = call_text("attention", Q2, K3, V3, PROBES[1][1]["mask"])
    out = expect_tuple(by_position, 2, sub.call("attention", Q2, K3, V3, PROBES[1][1]["mask"]))
    a2 = as_array(f"{by_position}: A (the second value)", out[1], shape=a.shape)
    expect(np.array_equal(a, a2), f"{by_position} gave A = {show(a2)}, but {call} gave A = {show(a)}: a mask "
                                  f"given by position is the same mask as given by name")


def _row_sums(sub, q, k, v, mask=None):
    y, a, call = attention_of(sub, q, k, v, mask)
    if not np.all(a >= 0):
        CATALOGUE.fail(sub, f"called {call}; A = {show(a)} has negative weights.")
    rows = a.sum(axis=1)
    if not np.allclose(rows, 1.0, rtol=0, atol=TOL):
        CATALOGUE.fail(sub, f"called {call}; got A = {show(a)}: each row of A should sum to 1, but one row sums to "
                            f"{rows[int(np.argmax(np.abs(rows - 1.0)))]:.6g}.")


@check("each row of A is a probability distribution (>= 0, sums to 1), with and without a mask", 1, uses=ALL)
def rows_stochastic(sub, ref):
    ex = (np.eye(3)[:, :2], np.eye(3)[:, :2] * 2, np.arange(6.0).reshape(3, 2), TRI3)
    cases = st.one_of(qkv().map(lambda c: (*c, None)), masked_case().map(lambda c: c[:4]))
    quick_for_all(cases, lambda c: _row_sums(sub, *c), examples=[(X3[:2] * [1, 2], X3, np.eye(3)[:, :2], None), ex])


@check("masked weights are exactly 0 (causal, padding and any mask)", 1, uses=ALL)
def masked_exactly_zero(sub, ref):
    def prop(case):
        q, k, v, mask, kind = case
        y, a, call = attention_of(sub, q, k, v, mask)
        if np.any(a[~mask] != 0.0):
            CATALOGUE.fail(sub, f"called {call} (a {kind} mask); got A = {show(a)}: where the mask is False the weight "
                                f"must be exactly 0, however low the allowed scores are.")

    q = np.array([[0.5, 1.0], [1.0, -1.0], [2.0, 0.0]])
    quick_for_all(masked_case(), prop, examples=[(q, q, q, TRI3, "causal")])
    # the allowed scores far below zero and a masked one far above them, all within the stub's thousands
    # (-6000, -9000 and +10000; -5000, -8000 and +10000): a masked score made 0, or held at a modest
    # floor, takes all the weight; -1e9 and -inf give it none. Only where the same scores unmasked give
    # finite weights: else the large scores are at fault, not the mask (the large-scores check says so)
    top = SCORE_LIMIT / 100
    for k, mask, kind in (([[0.6 * top], [0.9 * top], [-top]], [[True, True, False]], "padding"),
                          ([[-top], [0.5 * top], [0.8 * top]], [[False, True, True]], "random")):
        q, k = np.array([[-top]]), np.array(k)
        if _finite_unmasked(sub, q, k, np.eye(3)):
            prop((q, k, np.eye(3), np.array(mask), kind))


def _finite_unmasked(sub, q, k, v) -> bool:
    """Whether the student's attention(q, k, v) gives finite weights: evidence gathered aside."""
    try:
        with aside(sub):
            return bool(np.isfinite(as_array("", expect_tuple("", 2, sub.call("attention", q, k, v))[1])).all())
    except (Fail, StudentError):
        return False


@check("with a causal mask, output row i ignores the tokens after i", 1, uses=ALL)
def causal_no_future(sub, ref):
    def prop(case):
        (q, k, v), (q2, k2, v2), i = case
        mask = np.tril(np.ones((q.shape[0],) * 2, dtype=bool))
        y, _, call = attention_of(sub, q, k, v, mask)
        y2, _, _ = attention_of(sub, q2, k2, v2, mask)
        if not np.allclose(y[: i + 1], y2[: i + 1], rtol=TOL, atol=TOL):
            CATALOGUE.fail(sub, f"called {call}\nand again with rows {i + 1}.. of Q, K, V changed to "
                                f"{show(q2[i + 1:])}, {show(k2[i + 1:])}, {show(v2[i + 1:])}; rows 0..{i} of Y changed "
                                f"from {show(y[:i + 1])} to {show(y2[:i + 1])}, so an earlier token saw the future: "
                                "row i of Y may depend only on the rows 0..i of K and V.")

    k2, v2 = np.array([[1.0, 0.0], [2.0, -1.0], [-1.0, 3.0]]), np.array([[1.0, 0.0], [3.0, -2.0], [0.5, 4.0]])
    quick_for_all(future_change(), prop, examples=[((X3, X3, X3), (X3, k2, v2), 0)])  # row 0 kept, rows 1.. changed


@check("Y equals A @ V for the A you return", 1, uses=ALL)
def y_is_av(sub, ref):
    def prop(case):
        q, k, v, mask = case
        y, a, call = attention_of(sub, q, k, v, mask)
        if not np.allclose(y, a @ v, rtol=TOL, atol=TOL):
            fail(f"called {call}; got Y = {show(y)} and A = {show(a)}, but Y should be A @ V = "
                 f"{show(a @ v)} (the weights you return must be the ones you use)")

    cases = st.one_of(qkv().map(lambda c: (*c, None)), masked_case().map(lambda c: c[:4]))
    quick_for_all(cases, prop, examples=[(X3, X3, X3, None)])


@check("each entry of Y lies within the range of its column of V", 0.5, uses=ALL)
def y_in_range(sub, ref):
    def prop(case):
        q, k, v = case
        y, a, call = attention_of(sub, q, k, v)
        lo, hi = v.min(axis=0), v.max(axis=0)
        slack = TOL * (1 + np.abs(v).max())
        bad = (y < lo - slack) | (y > hi + slack)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            CATALOGUE.fail(sub, f"called {call}; Y[{r}, {c}] = {y[r, c]:.6g} lies outside [{lo[c]:.6g}, {hi[c]:.6g}], "
                                f"the range of column {c} of V. Each output is a weighted average of the values "
                                "(weights >= 0 summing to 1), so it cannot leave that range.")

    quick_for_all(qkv(), prop, examples=[(X3[:1], np.eye(2), np.array([[1.0], [2.0]]))])


@check("permuting queries permutes Y and A; permuting keys with values leaves Y unchanged", 1, uses=ALL)
def permutations_respected(sub, ref):
    def prop(case):
        q, k, v, mask, pq, pk = case
        close = lambda x, z: np.allclose(x, z, rtol=TOL, atol=TOL)  # noqa: E731
        y, a, call = attention_of(sub, q, k, v, mask)
        y2, a2, call2 = attention_of(sub, q[pq], k, v, None if mask is None else mask[pq])
        if not (close(y2, y[pq]) and close(a2, a[pq])):
            what = (f"Y = {show(y)} and then {show(y2)}" if not close(y2, y[pq])
                    else f"A = {show(a)} and then {show(a2)}")
            CATALOGUE.fail(sub, f"called {call}\nand {call2}\n(the queries reordered by {pq.tolist()}); the rows of Y "
                                f"and A should be reordered the same way, but got {what}.")
        y3, a3, call3 = attention_of(sub, q, k[pk], v[pk], None if mask is None else mask[:, pk])
        if not (close(y3, y) and close(a3, a[:, pk])):
            what = f"Y = {show(y)} and then {show(y3)}" if not close(y3, y) else f"A = {show(a)} and then {show(a3)}"
            CATALOGUE.fail(sub, f"called {call}\nand {call3}\n(keys and values reordered together by {pk.tolist()}); Y "
                                f"should stay the same and the columns of A follow the keys, but got {what}.")

    mask = np.array([[True, False, True], [True, True, False], [False, True, False]])
    ex = (X3, X3 * 2, X3[:, :1], mask, np.array([2, 0, 1]), np.array([1, 2, 0]))
    quick_for_all(permuted_case(), prop, examples=[ex])


@check("scores are divided by √d_k: repeating the columns of Q and K m times equals multiplying Q by √m", 1,
       uses=ALL)
def scaled_by_sqrt_dk(sub, ref):
    def prop(case):
        (q, k, v), m = case
        y, a, call = attention_of(sub, np.tile(q, m), np.tile(k, m), v)
        y2, a2, call2 = attention_of(sub, np.sqrt(m) * q, k, v)
        if not (np.allclose(a, a2, rtol=1e-9, atol=1e-12) and np.allclose(y, y2, rtol=1e-9, atol=1e-12)):
            CATALOGUE.fail(sub, f"called {call}\n(Q and K with their columns repeated {m} times: d_k goes from "
                                f"{q.shape[1]} to {m * q.shape[1]} and every dot product is {m} times larger), then "
                                f"{call2}\n(Q times √{m}). Dividing the dot products by √d_k makes both {m}·q·k / "
                                f"√({m}·d_k) = √{m}·q·k / √d_k, so the two should give the same A; got A = {show(a)} "
                                f"and A = {show(a2)}.")

    ex = ((np.array([[1.0, 0.5], [0.0, -1.0]]), np.array([[1.0, 1.0], [0.5, -0.5], [-1.0, 0.0]]), V3), 2)
    quick_for_all(st.tuples(qkv(), st.integers(2, 4)), prop, examples=[ex])


@check("without a mask every key is seen: attention(Q, K, V) equals an all-True mask", 0.5, uses=ALL)
def default_no_mask(sub, ref):
    for q, k, v in ((Q3, K3, V3), (Q2, K3, V3), (X3, X3[::-1] * 2, X3[:, :1])):
        y, a, call = attention_of(sub, q, k, v)
        y2, a2, call2 = attention_of(sub, q, k, v, np.ones((len(q), len(k)), dtype=bool))
        if not np.allclose(a, a2, rtol=TOL, atol=TOL):
            CATALOGUE.fail(sub, f"{call} gave A = {show(a)}, but with a mask that allows every key, {call2} gave A = "
                                f"{show(a2)}: with mask=None (the default) nothing is masked.")


@check("stays finite when the scores are large", 0.5, uses=ALL)
def large_scores_finite(sub, ref):
    big = np.array([[100.0, -100.0], [50.0, 0.0]])
    keys = np.array([[100.0, 100.0], [-100.0, 40.0], [0.0, 0.0]])
    largest = f"±{np.abs(big @ keys.T).max() / np.sqrt(2):.0f}"  # 9899: the thousands the stub promises
    for mask in (None, np.array([[True, False, True], [True, False, True]])):  # each row's top key unmasked
        kw = {} if mask is None else {"mask": mask}
        call = call_text("attention", big, keys, V3, **kw)
        with overflow_raised(OVERFLOW):
            out = sub.call("attention", big, keys, V3, **kw)
        y, a = expect_tuple(call, 2, out)
        a = as_array(f"{call}: A (the second value)", a, shape=(2, 3), finite=False)
        if not np.all(np.isfinite(a)):
            CATALOGUE.fail(sub, f"called {call}: the scores are as large as {largest}; got A = {show(a)}, which is "
                                f"not finite.", OVERFLOW, case=((big, keys, V3), kw, out))
        if not np.allclose(a.sum(axis=1), 1.0, atol=TOL):
            CATALOGUE.fail(sub, f"called {call}: the scores are as large as {largest}; got A = {show(a)}, whose rows sum "
                                f"to {show(a.sum(axis=1))}: each row of A should sum to 1, large scores or not.")


@check("attention leaves Q, K, V and the mask unchanged", 1, uses=ALL)
def inputs_unchanged(sub, ref):
    q = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    pad = np.array([[True, True, False], [True, True, False], [True, True, False]])
    for args in ((q, q[::-1].copy(), X3[:, :1]), (q, q[::-1].copy(), X3[:, :1], TRI3), (q, X3, X3[:, :1], pad),
                 (q[:2], X3, V3, np.array([[False, True, True], [True, False, False]]))):
        kw = {"mask": args[3]} if len(args) > 3 else {}  # by name: calling styles are the shapes check's
        _, changed = sub.call_full("attention", *args[:3], **kw)
        names = ", ".join(("Q", "K", "V")[i] if isinstance(i, int) else i for i in changed)
        expect(not changed, f"{call_text('attention', *args[:3], **kw)} modified {names} in place; {IN_PLACE}")
