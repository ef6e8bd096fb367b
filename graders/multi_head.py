"""Grader for the multi_head exercise: structure and laws in public; agreement with the
reference is checked in graders/hidden/multi_head.py."""

import numpy as np

from .kit import (Catalogue, Domain, Mistake, advice, advise, as_array, attend, call_text, causal_cases, check,
                  cross_cases, expect, expect_raises, expect_tuple, fail, for_all, heads, mha_cases, overflow,
                  overflow_raised, permutations, same_answer, scores_within, show, st)

MHA, CROSS = "multi_head_attention", "cross_attention"
TOL = dict(rtol=1e-7, atol=1e-9)
# What the stub promises (kit/domain.py): scores that "run into the thousands", in every head.
DOMAIN = Domain({
    MHA: ("scores that run into the thousands in every head",
          lambda x, wq, wk, wv, wo, h, mask=None: scores_within(x @ wq, x @ wk, heads=h) if wq.shape[1] % h == 0
          else None),
    CROSS: ("scores that run into the thousands",
            lambda xd, xe, wq, wk, wv, mask=None: scores_within(xd @ wq, xe @ wk)),
})
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
OVERFLOW = overflow("each row's maximum")
SWAPPED = advice("return (Y, A), the output first, then the weights")
IN_PLACE = advice("leave the caller's arrays alone (W_q / c makes a new array, W_q /= c changes the caller's)")


# ------------------------------------------------------------------ known mistakes
def _mha_mistake(says, **variant):
    return Mistake(says, lambda *args, mask=None: heads(*args, mask, **variant))


INTERLEAVED = ("head h takes the interleaved columns h, h + n_heads, h + 2·n_heads, ...; it takes the contiguous "
               "block h·d_k:(h+1)·d_k")
MASKING = ("masked keys still get weight: the mask is ignored", "masked scores are made 0 instead of -inf, so "
           "masked keys keep a weight", "the softmax runs down the columns (over the queries) instead of along "
           "each row (over the keys)")
MHA_MISTAKES = (
    _mha_mistake(MASKING[0], masking="ignored"), _mha_mistake(MASKING[1], masking="times"),
    _mha_mistake(MASKING[2], norm="columns"),
    _mha_mistake("the scores are divided by √d_model; each head divides by √d_k, its own width d_model / n_heads",
                 divide_by="d_model"),
    _mha_mistake("the scores are not divided by √d_k", divide_by="none"),
    _mha_mistake("the scores are divided by d_k instead of √d_k", divide_by="d_k²"),
    _mha_mistake("the output projection W_o is left out: concatenate the heads, then multiply by W_o", project="none"),
    _mha_mistake("the concatenated heads are multiplied by W_o transposed; multiply by W_o itself, on the right",
                 project="transposed"),
    _mha_mistake(INTERLEAVED, take="interleaved"), _mha_mistake(INTERLEAVED, take="interleaved", put="interleaved"),
    _mha_mistake("the heads are concatenated in reverse order; head 0 comes first", order=-1),
    _mha_mistake("(N, d_model) is reshaped straight to (n_heads, N, d_k), which splits the rows (tokens) between "
                 "heads instead of the columns; reshape to (N, n_heads, d_k) and move the head axis first",
                 take="tokens", put="tokens"),
    _mha_mistake("the heads' outputs, (n_heads, N, d_k), are reshaped straight to (N, d_model), which mixes "
                 "the tokens of different heads in each row; move the head axis back first (transpose to "
                 "(N, n_heads, d_k)), then reshape", put="tokens"),
)


def fixed_inputs(seed, n, d):
    """X (n, d) and four (d, d) weights with one-decimal entries in [-1, 1]."""
    rng = np.random.default_rng(seed)
    return [np.round(rng.uniform(-1, 1, s), 1) for s in [(n, d)] + [(d, d)] * 4]


ASYM4 = np.array([[True, False, True, False], [True, True, False, False], [False, True, True, True],
                  [True, False, False, True]])
# 2, 3 and 4 heads, a mask that is not symmetric and a causal one, d_k != d_model.
MHA_PROBES = (((*fixed_inputs(31, 4, 6), 3), {}), ((*fixed_inputs(32, 4, 6), 2), {"mask": ASYM4}),
              ((*fixed_inputs(33, 5, 8), 4), {"mask": np.tri(5, dtype=bool)}))
MHA_CATALOGUE = Catalogue(MHA, MHA_PROBES, MHA_MISTAKES, read=lambda out: as_array("the result", out, finite=False))


def _cross_mistake(says, q_from="dec", kv_from="enc", v_from=None, divide_by=lambda wq, wv, x: wq.shape[1], **att):
    def model(xd, xe, wq, wk, wv, mask=None):
        side = {"dec": xd, "enc": xe}
        m = mask.T if mask is not None and (q_from, kv_from) == ("enc", "dec") else mask
        return attend(side[q_from] @ wq, side[kv_from] @ wk, side[v_from or kv_from] @ wv, m,
                      divide_by=divide_by(wq, wv, xd), **att)
    return Mistake(says, model)


CROSS_MISTAKES = (
    _cross_mistake(MASKING[0], masking="ignored"), _cross_mistake(MASKING[1], masking="times"),
    _cross_mistake(MASKING[2], norm="columns"),
    _cross_mistake("the keys and values come from X_dec; in cross-attention they come from the encoder, X_enc",
                   kv_from="dec"),
    _cross_mistake("the two sides are swapped: queries come from the decoder X_dec, keys and values from X_enc",
                   q_from="enc", kv_from="dec"),
    _cross_mistake("the queries come from X_enc; they come from the decoder, X_dec", q_from="enc"),
    _cross_mistake("the values come from X_dec; like the keys, they come from the encoder, X_enc", v_from="dec"),
    _cross_mistake("the scores are divided by √d, the width of X, instead of √d_k, the number of columns of W_q",
                   divide_by=lambda wq, wv, x: x.shape[1]),
    _cross_mistake("the scores are not divided by √d_k", divide_by=lambda wq, wv, x: 1),
    _cross_mistake("the scores are divided by √d_v, the width of W_v, instead of √d_k, the number of columns of W_q",
                   divide_by=lambda wq, wv, x: wv.shape[1]),
)
_R = np.random.default_rng(34)
# N_q = 2 != N_k = 4 (and N_q = N_k = 3, where taking a side for the other does not fail); d = 3, d_k = 2
# and d_v = 4 all differ; a mask that is not symmetric.
CROSS_PROBES = tuple((tuple(np.round(_R.uniform(-1, 1, s), 1) for s in ((nq, 3), (nk, 3), (3, 2), (3, 2), (3, 4))),
                      kw) for nq, nk, kw in ((2, 4, {}), (2, 4, {"mask": ASYM4[:2]}), (3, 3, {"mask": ASYM4[1:, 1:]})))


def _read_pair(out):
    y, a = expect_tuple(CROSS, 2, out)
    return as_array("Y", y, finite=False), as_array("A", a, finite=False)


CROSS_CATALOGUE = Catalogue(CROSS, CROSS_PROBES, CROSS_MISTAKES, read=_read_pair)


# ------------------------------------------------------------------ calling the student
def mask_kw(mask):
    return {} if mask is None else {"mask": mask}


def mha_of(sub, x, wq, wk, wv, wo, h, mask=None):
    out = MHA_CATALOGUE.call(sub, x, wq, wk, wv, wo, h, **mask_kw(mask))
    return _mha_shape(sub, call_text(MHA, x, wq, wk, wv, wo, h, **mask_kw(mask)), out, x, h)


def _mha_shape(sub, call, out, x, h):
    """The student's answer as an (N, d_model) array, saying what a wrong shape has."""
    (n, d), shape = x.shape, getattr(out, "shape", None)
    what = (f" That is one head's width, d_model / n_heads = {d // h}, where the heads side by side (then times "
            f"W_o) make d_model = {d} columns." if shape == (n, d // h) and h > 1 else
            f" That is (n_heads, N, d_k): one block per head, where the heads side by side (then times W_o) make "
            f"one (N, d_model) array." if shape == (h, n, d // h) else "")
    with MHA_CATALOGUE.reworded(sub, after=what):
        return as_array(f"the result of {call}", out, shape=(n, d))


def cross_of(sub, xd, xe, wq, wk, wv, mask=None):
    call = call_text(CROSS, xd, xe, wq, wk, wv, **mask_kw(mask))
    y, a = expect_tuple(call, 2, CROSS_CATALOGUE.call(sub, xd, xe, wq, wk, wv, **mask_kw(mask)))
    nq, nk = len(xd), len(xe)
    shapes, want = tuple(getattr(x, "shape", None) for x in (y, a)), ((nq, wv.shape[1]), (nq, nk))
    if shapes != want and shapes == want[::-1]:
        fail(f"{call} returned arrays of shapes {shapes[0]} and {shapes[1]}, which are the shapes of A and Y, in "
             f"that order: {SWAPPED}")
    a = as_array(f"A from {call}", a, ndim=2)
    if a.shape != (nq, nk):
        CROSS_CATALOGUE.fail(sub, f"called {call}; A should have one row per decoder token and one column per encoder "
                                  f"token, shape ({nq}, {nk}); got shape {a.shape}.")
    return as_array(f"Y from {call}", y, shape=(nq, wv.shape[1])), a


def _same(a, b):
    return np.allclose(a, b, **TOL)


# ------------------------------------------------------------------ public checks
@check("multi_head_attention returns a float64 (N, d_model) array, mask by position or by name", 0.5, uses=(MHA,))
def mha_shape(sub, ref):
    for n, d, h, mask in ((4, 6, 3, None), (1, 4, 2, None), (3, 8, 4, np.tri(3, dtype=bool)), (2, 3, 1, None)):
        x, *ws = fixed_inputs(3, n, d)
        out = sub.call(MHA, x, *ws, h, **mask_kw(mask))
        _mha_shape(sub, call_text(MHA, x, *ws, h, **mask_kw(mask)), out, x, h)
        expect(out.dtype == np.float64, f"{MHA} returned dtype {out.dtype} for float64 inputs; return float64")
    x, *ws = fixed_inputs(5, 3, 4)
    _mask_by_position(sub, MHA, (x, *ws, 2), np.tri(3, dtype=bool))


def _mask_by_position(sub, func, args, mask):
    """What the signatures promise: mask=None, the last parameter, by position or by name."""
    by_name, by_position = call_text(func, *args, mask=mask), call_text(func, *args, mask)
    named, placed = sub.call(func, *args, mask=mask), sub.call(func, *args, mask)
    expect(same_answer(named, placed), f"{by_position} gave {show(placed)}, but {by_name} gave {show(named)}: "
                                        f"a mask given by position is the same mask as given by name")


@check("raises ValueError when n_heads does not divide d_model", 1, uses=(MHA,))
def rejects_uneven_heads(sub, ref):
    notes = []
    for d, h in ((6, 3), (6, 4), (6, 6), (8, 3), (5, 2), (2, 4)):
        x, *ws = fixed_inputs(5, 3, d)
        call = f"{MHA}(X, W_q, W_k, W_v, W_o, n_heads={h}) with X of shape (3, {d}) and W_* of shape ({d}, {d})"
        if d % h == 0:
            _mha_shape(sub, call, sub.call(MHA, x, *ws, h), x, h)
        else:
            notes.append(expect_raises(sub, MHA, (x, *ws, h), exception="ValueError", call=call,
                                       test="n_heads divides d_model",
                                       reason=f"{d} columns cannot be split into {h} heads of equal width"))
    advise(notes)


@check("with a causal mask, output row i ignores the tokens after i", 1, uses=(MHA,))
def causal_no_peeking(sub, ref):
    def prop(case):
        (x, wq, wk, wv, wo, h, mask), i, x2 = case
        y1, y2 = mha_of(sub, x, wq, wk, wv, wo, h, mask), mha_of(sub, x2, wq, wk, wv, wo, h, mask)
        bad = [r for r in range(i + 1) if not np.allclose(y1[r], y2[r], rtol=1e-9, atol=1e-9)]
        if bad:
            values = x @ wv  # the mask changes row 0 of a right answer unless every token has token 0's values
            same = not np.allclose(values, values[:1], rtol=1e-9, atol=1e-9) and \
                np.allclose(y1, mha_of(sub, x, wq, wk, wv, wo, h), rtol=1e-9, atol=1e-9)
            call = call_text(MHA, x, wq, wk, wv, wo, h, mask=mask)
            MHA_CATALOGUE.fail(sub, f"called {call}, then again with only the rows after row {i} of X changed, X = "
                                    f"{show(x2)}; row {bad[0]} of the result changed from {show(y1[bad[0]])} to "
                                    f"{show(y2[bad[0]])}, so token {bad[0]} sees later tokens"
                                    + (" (and the result is the same without the mask)." if same else "."))

    for_all(causal_cases(), prop, max_examples=30)


@check("permuting the tokens permutes the output rows", 0.5, uses=(MHA,))
def token_permutation(sub, ref):
    def prop(case):
        (x, wq, wk, wv, wo, h, mask), p = case
        pmask = None if mask is None else mask[p][:, p]
        y, yp = mha_of(sub, x, wq, wk, wv, wo, h, mask), mha_of(sub, x[p], wq, wk, wv, wo, h, pmask)
        if not _same(yp, y[p]):
            r = int(np.argmax(np.abs(yp - y[p]).max(axis=1)))
            MHA_CATALOGUE.fail(sub, f"called {call_text(MHA, x, wq, wk, wv, wo, h, **mask_kw(mask))}, then with the "
                                    f"tokens reordered by p = {show(p)} (rows of "
                                    f"X{', rows and columns of the mask' if mask is not None else ''}); row {r} of the "
                                    f"second result should equal row {p[r]} of the first; got {show(yp[r])} and "
                                    f"{show(y[p[r]])}. Attention treats every token alike.")

    for_all(mha_cases().flatmap(lambda c: st.tuples(st.just(c), permutations(len(c[0])))), prop, max_examples=30)


@check("head h uses columns h·d_k:(h+1)·d_k of W_q, W_k, W_v, and its output fills those columns", 1, uses=(MHA,))
def heads_are_blocks(sub, ref):
    def prop(case):
        (x, wq, wk, wv, wo, h, mask), j, seed = case
        dk = len(wq) // h
        cols = slice(j * dk, (j + 1) * dk)
        other = np.ones(len(wq), dtype=bool)
        other[cols] = False
        rng = np.random.default_rng(seed)
        changed = [w + np.where(other, np.round(rng.uniform(-1, 1, w.shape), 1), 0.0) for w in (wq, wk, wv)]
        eye = np.eye(len(wo))
        y, y2 = mha_of(sub, x, wq, wk, wv, eye, h, mask), mha_of(sub, x, *changed, eye, h, mask)
        if not _same(y[:, cols], y2[:, cols]):
            MHA_CATALOGUE.fail(sub, f"called {call_text(MHA, x, wq, wk, wv, eye, h, **mask_kw(mask))}, then again with "
                                    f"every column of W_q, W_k and W_v outside {cols.start}:{cols.stop} changed; with "
                                    f"W_o = I, columns {cols.start}:{cols.stop} of the result are head {j}'s output "
                                    f"and depend on those columns only, but they changed from {show(y[:, cols])} to "
                                    f"{show(y2[:, cols])}.")

    cases = mha_cases(heads=(2, 4)).flatmap(lambda c: st.tuples(st.just(c), st.integers(0, c[5] - 1),
                                                                st.integers(0, 2**16 - 1)))
    for_all(cases, prop, max_examples=25)


@check("each head divides its scores by √d_k, its own width", 1, uses=(MHA,))
def heads_scale_by_own_width(sub, ref):
    def prop(case):
        x, wq, wk, wv, _, h, mask = case
        d = len(wq)
        eye, big = np.eye(2 * d), [np.kron(np.eye(2), w) for w in (wq, wk, wv)]
        y = mha_of(sub, np.hstack([x, x]), *big, eye, 1, mask)[:, :d]  # one head of width 2d: dot products double
        y2 = mha_of(sub, x, np.sqrt(2) * wq, wk, wv, np.eye(d), 1, mask)  # ... which √(2d) must make √2 times
        if not _same(y, y2):
            MHA_CATALOGUE.fail(sub, f"with one head, called {MHA} on [X X] with W_q, W_k, W_v doubled block-diagonally "
                                    f"(d_k = {2 * d}, every dot product twice as large), and on X with W_q times √2 "
                                    f"(d_k = {d}); dividing by √d_k makes the two heads the same, but the first "
                                    f"columns of the results were {show(y)} and {show(y2)} (X = {show(x)}, W_o = I).")
        if h > 1:  # h heads that are copies of one head of width d_k give h copies of its output
            dk = d // h
            xs, blocks = np.hstack([x[:, :dk], np.zeros((len(x), d - dk))]), [w[:dk, :dk] for w in (wq, wk, wv)]
            tiled = [np.vstack([np.tile(b, h), np.zeros((d - dk, d))]) for b in blocks]
            y, one = mha_of(sub, xs, *tiled, np.eye(d), h, mask), mha_of(sub, x[:, :dk], *blocks, np.eye(dk), 1, mask)
            # what each copy gives if it divides by √d_model: the single head with W_q / √h (its own
            # scaling was checked above). Any other difference is not about scaling; other checks name it.
            wide = mha_of(sub, x[:, :dk], blocks[0] / np.sqrt(h), *blocks[1:], np.eye(dk), 1, mask)
            if not _same(y, np.tile(one, h)) and _same(y, np.tile(wide, h)):
                MHA_CATALOGUE.fail(sub, f"called {MHA} with {h} heads that are all copies of one head of width d_k = "
                                        f"{dk}, and with that single head alone (n_heads=1, d_model = {dk}); each copy "
                                        f"should give the single head's output {show(one)}, but got {show(y)}: what "
                                        f"dividing by √d_model = √{d} instead of √d_k = √{dk} gives.")

    for_all(mha_cases(), prop, max_examples=25)


@check("W_o is applied last: the result with W_o equals the result with W_o = I, times W_o", 1, uses=(MHA,))
def projection_last(sub, ref):
    def prop(case):
        x, wq, wk, wv, wo, h, mask = case
        y, yi = mha_of(sub, x, wq, wk, wv, wo, h, mask), mha_of(sub, x, wq, wk, wv, np.eye(len(wo)), h, mask)
        if not _same(y, yi @ wo):
            same = " (the two are equal: W_o makes no difference)" if _same(y, yi) else ""
            MHA_CATALOGUE.fail(sub, f"called {call_text(MHA, x, wq, wk, wv, wo, h, **mask_kw(mask))}; got {show(y)}, "
                                    f"and with W_o = I got {show(yi)}{same}; the first should be the second times W_o.")

    for_all(mha_cases(), prop, max_examples=25)


@check("cross_attention returns Y (N_q, d_v) and row-stochastic A (N_q, N_k) with Y = A V, mask by position or by "
       "name", 1, uses=(CROSS,))
def cross_structure(sub, ref):
    def prop(case):
        xd, xe, wq, wk, wv, mask = case
        call = call_text(CROSS, xd, xe, wq, wk, wv, **mask_kw(mask))
        y, a = cross_of(sub, *case)
        if not np.allclose(a.sum(axis=1), 1.0, atol=1e-9) or not np.all(a >= 0):
            CROSS_CATALOGUE.fail(sub, f"called {call}; the rows of A = {show(a)} should be >= 0 and sum to 1, got sums "
                                      f"{show(a.sum(axis=1))}.")
        if mask is not None and np.any(a[~mask] != 0.0):
            CROSS_CATALOGUE.fail(sub, f"called {call}; got A = {show(a)}: entries where the mask is False should be "
                                      "exactly 0.")
        if not _same(y, a @ (xe @ wv)):
            CROSS_CATALOGUE.fail(sub, f"called {call}; got Y = {show(y)} and A = {show(a)}, but Y should be A @ V, "
                                      f"with V = X_enc @ W_v = {show(xe @ wv)}.")

    for_all(cross_cases(), prop, max_examples=30)
    x, *ws = fixed_inputs(5, 3, 4)
    _mask_by_position(sub, CROSS, (x[:2], x, *ws[:3]), ASYM4[:2, :3])


@check("cross_attention divides by √d_k: repeating the columns of W_q and W_k equals W_q times √2", 0.5,
       uses=(CROSS,))
def cross_scaled(sub, ref):
    def prop(case):
        xd, xe, wq, wk, wv, mask = case
        _, a = cross_of(sub, xd, xe, np.hstack([wq, wq]), np.hstack([wk, wk]), wv, mask)
        _, a2 = cross_of(sub, xd, xe, np.sqrt(2) * wq, wk, wv, mask)
        if not _same(a, a2):
            CROSS_CATALOGUE.fail(sub, f"called {call_text(CROSS, xd, xe, wq, wk, wv, **mask_kw(mask))} with W_q and "
                                      f"W_k repeated side by side (d_k = {2 * wq.shape[1]}, every dot product twice as "
                                      "large), and with W_q times √2; dividing by √d_k makes them the same, but got A "
                                      f"= {show(a)} and A = {show(a2)}.")

    for_all(cross_cases(), prop, max_examples=25)


@check("no mask means no mask, and large scores stay finite", 0.5, uses=(MHA, CROSS))
def defaults_and_large_scores(sub, ref):
    x, *ws = fixed_inputs(12, 4, 4)
    big = 40 * x  # entries up to ±40: scores up to ±1762 in the heads, where np.exp overflows
    cross = 120 * x  # one head over more columns: scores up to ±4297 (40 · x would stay below 709)
    for func, args in ((MHA, (big, *ws, 2)), (CROSS, (cross[:2], cross[1:], *ws[:3]))):
        with overflow_raised(OVERFLOW):  # math.exp's OverflowError is the same mistake as an np.exp at inf
            out = sub.call(func, *args)
        got = out[1] if func == CROSS and isinstance(out, tuple) and len(out) == 2 else out
        a = as_array(f"the result of {call_text(func, *args)}", got, finite=False)
        if not np.all(np.isfinite(a)):
            (MHA_CATALOGUE if func == MHA else CROSS_CATALOGUE).fail(
                sub, f"called {call_text(func, *args)}, where the scores reach the thousands; got {show(a)}, which "
                     f"is not finite.", OVERFLOW, case=(args, {}, out))  # a hint only where it gives this result
    y, y2 = mha_of(sub, x, *ws, 2), mha_of(sub, x, *ws, 2, np.ones((4, 4), dtype=bool))
    if not _same(y, y2):
        MHA_CATALOGUE.fail(sub, f"{call_text(MHA, x, *ws, 2)} gave {show(y)}, but with a mask that allows every key, "
                                f"{show(y2)}: with mask=None (the default) nothing is masked.")
    (yc, ac), (yc2, ac2) = (cross_of(sub, x[:2], x[1:], *ws[:3]),
                            cross_of(sub, x[:2], x[1:], *ws[:3], np.ones((2, 3), bool)))
    if not (_same(ac, ac2) and _same(yc, yc2)):
        CROSS_CATALOGUE.fail(sub, f"{call_text(CROSS, x[:2], x[1:], *ws[:3])} gave A = {show(ac)}, but with a mask "
                                  f"that allows every key, A = {show(ac2)}: with mask=None (the default) nothing is "
                                  "masked.")


@check("leaves its inputs unchanged", 1, uses=(MHA, CROSS))
def inputs_unchanged(sub, ref):
    x, *ws = fixed_inputs(11, 3, 2)
    for func, args, names in (
            (MHA, (x, *ws, 2, np.tri(3, dtype=bool)), ("X", "W_q", "W_k", "W_v", "W_o", "n_heads", "mask")),
            (MHA, (x, *ws, 1), ("X", "W_q", "W_k", "W_v", "W_o", "n_heads")),
            (CROSS, (x, x[:2] + 1, *ws[:3], np.ones((3, 2), bool)), ("X_dec", "X_enc", "W_q", "W_k", "W_v", "mask")),
            (CROSS, (x[:2], x + 1, *ws[:3], ASYM4[:2, :3]), ("X_dec", "X_enc", "W_q", "W_k", "W_v", "mask"))):
        last = len(names) - 1  # the mask, where there is one, by name: calling styles are the shape check's
        args, kw = (args[:last], {"mask": args[last]}) if names[last] == "mask" else (args, {})
        _, changed = sub.call_full(func, *args, **kw)
        expect(not changed, f"{func}(...) modified {', '.join(names[i] if isinstance(i, int) else i for i in changed)} "
                            f"in place; {IN_PLACE}")
