"""Grader for the multi_head exercise: structure and properties in public; agreement
with the reference is checked in graders/hidden/multi_head.py."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .kit.checks import Fail, Raised, as_array, call_text, check, expect, expect_tuple, show
from .kit.props import for_all
from .kit.strategies import permutations

MHA, CROSS = "multi_head_attention", "cross_attention"
TOL = dict(rtol=1e-7, atol=1e-9)
# Token entries shrink towards 1.0 (not 0), so a counterexample keeps scores, and differences, of visible size.
TOKEN_VALUES = np.array([1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0.0, 1.5, -1.5])


# ------------------------------------------------------------------ strategies
def _tokens(draw, shape):
    return TOKEN_VALUES[draw(hnp.arrays(np.int64, shape, elements=st.integers(0, len(TOKEN_VALUES) - 1)))]


def _weights(draw, *shapes):
    """Entries in [-1, 1] with one decimal, from one drawn seed (per-entry draws triple the grading time)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**16 - 1)))
    return [rng.integers(-10, 11, s) / 10.0 for s in shapes]


@st.composite
def bool_masks(draw, n_q, n_k):
    """A boolean (n_q, n_k) mask from one integer's bits; a row left empty gets key i % n_k."""
    m = ((draw(st.integers(0, 2 ** (n_q * n_k) - 1)) >> np.arange(n_q * n_k)) & 1).astype(bool).reshape(n_q, n_k)
    for i in np.flatnonzero(~m.any(axis=1)):
        m[i, i % n_k] = True
    return m


@st.composite
def mha_cases(draw, min_n=1, masks=("none", "causal", "random"), heads=(1, 4)):
    """(X, W_q, W_k, W_v, W_o, n_heads, mask): 1-4 heads, d_model = n_heads * d_k <= 8, N <= 5."""
    h = draw(st.integers(*heads))
    d, n, kind = h * draw(st.integers(1, 8 // h)), draw(st.integers(min_n, 5)), draw(st.sampled_from(masks))
    mask = None if kind == "none" else np.tri(n, dtype=bool) if kind == "causal" else draw(bool_masks(n, n))
    return (_tokens(draw, (n, d)), *_weights(draw, *[(d, d)] * 4), h, mask)


@st.composite
def causal_cases(draw):
    """(case, i, X2): a causal case and X2, equal to X up to row i and different after it."""
    case = draw(mha_cases(min_n=2, masks=("causal",)))
    i = draw(st.integers(0, len(case[0]) - 2))
    x2 = case[0].copy()
    x2[i + 1:] = _tokens(draw, x2[i + 1:].shape)
    x2[-1] += float(np.array_equal(x2, case[0]))
    return case, i, x2


@st.composite
def cross_cases(draw, distinct=True):
    """(X_dec, X_enc, W_q, W_k, W_v, mask): N_q, N_k <= 5 (different when ``distinct``), d, d_k, d_v <= 4."""
    nq = draw(st.integers(1, 5))
    nk = draw(st.integers(1, 4).map(lambda m: m + (m >= nq)) if distinct else st.integers(1, 5))
    d, dk, dv = (draw(st.integers(1, 4)) for _ in range(3))
    return (_tokens(draw, (nq, d)), _tokens(draw, (nk, d)), *_weights(draw, (d, dk), (d, dk), (d, dv)),
            draw(st.none() | bool_masks(nq, nk)))


# ------------------------------------------------------------------ calling the student
def _kw(mask):
    return {} if mask is None else {"mask": mask}


def _mha(sub, x, wq, wk, wv, wo, h, mask=None):
    out = sub.call(MHA, x, wq, wk, wv, wo, h, **_kw(mask))
    return _mha_shape(call_text(MHA, x, wq, wk, wv, wo, h, **_kw(mask)), out, x, h, mask)


def _mha_shape(call, out, x, h, mask=None):
    """The student's answer as an (N, d_model) array, with a hint for the usual wrong shapes and NaN."""
    (n, d), shape = x.shape, getattr(out, "shape", None)
    try:
        return as_array(f"the result of {call}", out, shape=(n, d))
    except Fail as exc:
        hint = (" Hint: NaN comes from a softmax over scores that are all -inf: normalise each row over the keys "
                "(every row of a mask has a True entry; a column may have none)." if "NaN" in exc.message else
                " It has one head's width: concatenate all heads along the columns, then multiply by W_o."
                if shape == (n, d // h) and h > 1 else " The heads are still stacked: concatenate them side by "
                "side (head 0 first), then multiply by W_o." if shape == (h, n, d // h) else "")
        raise Fail(exc.message + hint) from None


def _cross(sub, xd, xe, wq, wk, wv, mask=None):
    call = call_text(CROSS, xd, xe, wq, wk, wv, **_kw(mask))
    y, a = expect_tuple(call, 2, sub.call(CROSS, xd, xe, wq, wk, wv, **_kw(mask)))
    nq, nk = len(xd), len(xe)
    a = as_array(f"A from {call}", a, ndim=2)
    if a.shape != (nq, nk):
        hint = {(nq, nq): "keys and values seem to come from X_dec; in cross-attention they come from X_enc",
                (nk, nq): "queries and keys seem to have swapped sides: queries come from X_dec, keys from X_enc",
                (nk, nk): "the queries seem to come from X_enc; they come from the decoder, X_dec"}.get(a.shape)
        raise Fail(f"called {call}; A should have one row per decoder token and one column per encoder token, "
                   f"shape ({nq}, {nk}); got shape {a.shape}." + (f" Hint: {hint}." if hint else ""))
    return as_array(f"Y from {call}", y, shape=(nq, wv.shape[1])), a


def _fixed(seed, n, d):
    """X (n, d) and four (d, d) weights with one-decimal entries in [-1, 1]."""
    rng = np.random.default_rng(seed)
    return [np.round(rng.uniform(-1, 1, s), 1) for s in [(n, d)] + [(d, d)] * 4]


# ------------------------------------------------------------------ public checks
@check("multi_head_attention returns a float64 (N, d_model) array", 1, uses=(MHA,))
def mha_shape(sub, ref):
    for n, d, h, mask in ((4, 6, 3, None), (1, 4, 2, None), (3, 8, 4, np.tri(3, dtype=bool)), (2, 3, 1, None)):
        x, *ws = _fixed(3, n, d)
        out = sub.call(MHA, x, *ws, h, **_kw(mask))
        _mha_shape(call_text(MHA, x, *ws, h, **_kw(mask)), out, x, h, mask)
        expect(out.dtype == np.float64, f"{MHA} returned dtype {out.dtype} for float64 inputs; return float64")


@check("raises ValueError when n_heads does not divide d_model", 1, uses=(MHA,))
def rejects_uneven_heads(sub, ref):
    for d, h, ok in ((6, 3, True), (6, 4, False), (6, 6, True), (8, 3, False), (5, 2, False), (2, 4, False)):
        x, *ws = _fixed(5, 3, d)
        call = f"{MHA}(X, W_q, W_k, W_v, W_o, n_heads={h}) with X of shape (3, {d}) and W_* of shape ({d}, {d})"
        try:
            out = sub.call(MHA, x, *ws, h)
        except Raised as exc:
            if exc.not_written:
                raise
            if not ok and exc.is_a("ValueError"):
                continue
            msg = exc.info.get("message", "")
            raise Fail(f"{call} raised {exc.type_name}{': ' + str(msg) if msg else ''} "
                       + (f"although {h} divides {d}" if ok else "instead of ValueError")) from None
        if ok:
            _mha_shape(call, out, x, h)
            continue
        what = f"an array of shape {out.shape}" if isinstance(out, np.ndarray) else show(out)
        raise Fail(f"{call} returned {what}; it should raise ValueError, because {d} columns cannot be split into "
                   f"{h} heads of equal width. Computing d_k = d_model // n_heads and carrying on silently drops "
                   f"columns.")


@check("with a causal mask, output row i ignores the tokens after i", 1, uses=(MHA,))
def causal_no_peeking(sub, ref):
    def prop(case):
        (x, wq, wk, wv, wo, h, mask), i, x2 = case
        y1, y2 = _mha(sub, x, wq, wk, wv, wo, h, mask), _mha(sub, x2, wq, wk, wv, wo, h, mask)
        bad = [r for r in range(i + 1) if not np.allclose(y1[r], y2[r], rtol=1e-9, atol=1e-9)]
        if bad:
            same = np.allclose(y1, _mha(sub, x, wq, wk, wv, wo, h), rtol=1e-9, atol=1e-9)
            hint = ("your result is the same with and without the mask, so masked keys still get weight: the mask "
                    "seems to be ignored, or masked scores are set to 0 rather than -inf" if same else
                    "in every head, set the masked scores to -inf before the softmax and normalise each row over "
                    "the keys, so query i gives weight 0 to every key after i")
            raise Fail(f"called {call_text(MHA, x, wq, wk, wv, wo, h, mask=mask)}, then again with only the rows "
                       f"after row {i} of X changed, X = {show(x2)}; row {bad[0]} of the result changed from "
                       f"{show(y1[bad[0]])} to {show(y2[bad[0]])}, so token {bad[0]} sees later tokens. Hint: {hint}.")

    for_all(causal_cases(), prop, max_examples=30)


@check("permuting the tokens permutes the output rows", 1, uses=(MHA,))
def token_permutation(sub, ref):
    def prop(case):
        (x, wq, wk, wv, wo, h, mask), p = case
        pmask = None if mask is None else mask[p][:, p]
        y, yp = _mha(sub, x, wq, wk, wv, wo, h, mask), _mha(sub, x[p], wq, wk, wv, wo, h, pmask)
        if not np.allclose(yp, y[p], **TOL):
            r = int(np.argmax(np.abs(yp - y[p]).max(axis=1)))
            same = np.array_equal(x[p], x) and (mask is None or np.array_equal(pmask, mask))
            what = (f"tokens {r} and {p[r]} are identical, so rows {r} and {p[r]} of the result should be too; got "
                    f"{show(y[r])} and {show(y[p[r]])}" if same else
                    f"then with the tokens reordered by p = {show(p)} (rows of X"
                    f"{', rows and columns of the mask' if mask is not None else ''}); row {r} of the second result "
                    f"should equal row {p[r]} of the first; got {show(yp[r])} and {show(y[p[r]])}")
            raise Fail(f"called {call_text(MHA, x, wq, wk, wv, wo, h, **_kw(mask))}; {what}. Attention treats every "
                       f"token alike. If you split heads with a reshape, reshape (N, d_model) to (N, n_heads, d_k) "
                       f"and then move the head axis first: reshaping straight to (n_heads, N, d_k) cuts through "
                       f"the tokens.")

    for_all(mha_cases().flatmap(lambda c: st.tuples(st.just(c), permutations(len(c[0])))), prop, max_examples=30)


@check("W_o is applied last: the result with W_o equals the result with W_o = I, times W_o", 1, uses=(MHA,))
def projection_last(sub, ref):
    def prop(case):
        x, wq, wk, wv, wo, h, mask = case
        y, yi = _mha(sub, x, wq, wk, wv, wo, h, mask), _mha(sub, x, wq, wk, wv, np.eye(len(wo)), h, mask)
        if not np.allclose(y, yi @ wo, **TOL):
            hint = ("the two results are equal, so W_o is never used" if np.allclose(y, yi, rtol=1e-9, atol=1e-12)
                    else "the result looks multiplied by W_o transposed" if np.allclose(y, yi @ wo.T, **TOL)
                    else "multiply the concatenated heads, (N, d_model), by W_o on the right, as the last step")
            raise Fail(f"called {call_text(MHA, x, wq, wk, wv, wo, h, **_kw(mask))}; got {show(y)}, and with "
                       f"W_o = I got {show(yi)}; the first should be the second times W_o. Hint: {hint}.")

    for_all(mha_cases(), prop, max_examples=25)


@check("cross_attention returns Y (N_q, d_v) and row-stochastic A (N_q, N_k) with Y = A V", 1, uses=(CROSS,))
def cross_structure(sub, ref):
    def prop(case):
        xd, xe, wq, wk, wv, mask = case
        call = call_text(CROSS, xd, xe, wq, wk, wv, **_kw(mask))
        y, a = _cross(sub, *case)
        if not np.allclose(a.sum(axis=1), 1.0, atol=1e-9):
            raise Fail(f"called {call}; the rows of A = {show(a)} should sum to 1, got sums {show(a.sum(axis=1))}."
                       + (" Hint: the columns sum to 1: the softmax runs over the queries; it should run along "
                          "each row, over the encoder keys." if np.allclose(a.sum(axis=0), 1.0, atol=1e-9) else ""))
        expect(np.all(a >= 0), f"called {call}; A = {show(a)} has negative entries")
        expect(mask is None or np.all(a[~mask] == 0.0), f"called {call}; got A = {show(a)}: entries where the mask "
                                                        f"is False should be exactly 0 (scores -inf before softmax)")
        expect(np.allclose(y, a @ (xe @ wv), **TOL), f"called {call}; got Y = {show(y)} and A = {show(a)}, but "
                                                    f"Y should be A @ V, with V = X_enc @ W_v = {show(xe @ wv)}")

    for_all(cross_cases(), prop, max_examples=30)


@check("leaves its inputs unchanged", 1, uses=(MHA, CROSS))
def inputs_unchanged(sub, ref):
    x, *ws = _fixed(11, 3, 2)
    for func, args, names in (
            (MHA, (x, *ws, 2, np.tri(3, dtype=bool)), ("X", "W_q", "W_k", "W_v", "W_o", "n_heads", "mask")),
            (CROSS, (x, x[:2] + 1, *ws[:3], np.ones((3, 2), bool)), ("X_dec", "X_enc", "W_q", "W_k", "W_v", "mask"))):
        _, changed = sub.call_full(func, *args)
        expect(not changed, f"{func}(...) modified {', '.join(names[i] for i in changed)} in place; leave the "
                            f"caller's arrays alone (W_q / c makes a new array, W_q /= c changes the caller's)")
