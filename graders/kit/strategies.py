"""Named Hypothesis strategies shared by the graders.

Small shapes and bounded, finite float64 elements, so every counterexample is
short enough to read in feedback. The inputs of scaled dot-product attention
(Q, K, V, masks and the cases built from them) are here, shared by the
attention graders; other exercise-specific strategies live in the exercise's
grader.
"""

from __future__ import annotations

import numpy as np

from .lazy import hnp, st  # Hypothesis only when a property is drawn live

__all__ = ["BOUND", "floats", "matrices", "arrays_any_rank", "array_and_axis", "qkv", "masks", "permutations",
           "masked_case", "future_change", "permuted_case", "TOKEN_VALUES", "bool_masks", "mha_cases",
           "causal_cases", "cross_cases"]

BOUND = 10.0


def floats(bound: float = BOUND):
    """Finite float64 values in [-bound, bound] with 2 decimals, so feedback reads well.

    Drawn as whole hundredths: several times faster to generate than
    st.floats, and they shrink towards 0 and towards short numbers.
    """
    n = int(round(bound * 100))
    return st.integers(-n, n).map(lambda i: i / 100)


def matrices(rows=st.integers(1, 4), cols=st.integers(1, 4), bound: float = BOUND):
    """A float64 matrix with a drawn number of rows and columns."""
    return st.tuples(rows, cols).flatmap(
        lambda rc: hnp.arrays(np.float64, rc, elements=floats(bound)))


def arrays_any_rank(max_dims: int = 3, max_side: int = 4, bound: float = BOUND):
    """A float64 array of rank 1..max_dims."""
    shapes = hnp.array_shapes(min_dims=1, max_dims=max_dims, min_side=1, max_side=max_side)
    return hnp.arrays(np.float64, shapes, elements=floats(bound))


@st.composite
def array_and_axis(draw, max_dims: int = 3, max_side: int = 4, bound: float = BOUND):
    """(z, axis): an array of any small rank and a valid axis, negative axes included."""
    z = draw(arrays_any_rank(max_dims, max_side, bound))
    axis = draw(st.integers(-z.ndim, z.ndim - 1))
    return z, axis


@st.composite
def qkv(draw, cross: bool = True, max_n: int = 5, max_d: int = 4, bound: float = 3.0):
    """(Q, K, V) for attention: Q (N_q, d_k), K (N_k, d_k), V (N_k, d_v).

    With ``cross=False``, N_q == N_k (self-attention shapes).
    """
    n_k = draw(st.integers(1, max_n))
    n_q = draw(st.integers(1, max_n)) if cross else n_k
    d_k = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, max_d))
    el = floats(bound)
    q = draw(hnp.arrays(np.float64, (n_q, d_k), elements=el))
    k = draw(hnp.arrays(np.float64, (n_k, d_k), elements=el))
    v = draw(hnp.arrays(np.float64, (n_k, d_v), elements=el))
    return q, k, v


@st.composite
def masks(draw, n_q: int, n_k: int):
    """A boolean (n_q, n_k) mask with at least one True per row (every query sees a key)."""
    m = draw(hnp.arrays(np.bool_, (n_q, n_k)))
    first = draw(hnp.arrays(np.int64, (n_q,), elements=st.integers(0, n_k - 1)))
    m[np.arange(n_q), first] = True
    return m


def permutations(n: int):
    """A permutation of range(n) as an int array."""
    return st.permutations(list(range(n))).map(np.array)


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


@st.composite
def future_change(draw):
    """Self-attention inputs, a position i, and the same inputs with every token after i redrawn."""
    q, k, v = draw(qkv(cross=False).filter(lambda c: c[0].shape[0] >= 2))
    i = draw(st.integers(0, q.shape[0] - 2))
    new = tuple(np.concatenate([x[: i + 1], draw(hnp.arrays(np.float64, x[i + 1:].shape, elements=floats(3.0)))])
                for x in (q, k, v))
    return (q, k, v), new, i


@st.composite
def permuted_case(draw):
    """(Q, K, V, mask or None, a permutation of the queries, a permutation of the keys)."""
    q, k, v = draw(qkv())
    mask = draw(st.one_of(st.none(), masks(q.shape[0], k.shape[0])))
    return q, k, v, mask, draw(permutations(q.shape[0])), draw(permutations(k.shape[0]))


# Multi-head and cross-attention cases. Token entries shrink towards 1.0 (not 0), so a counterexample
# keeps scores, and differences, of visible size.
TOKEN_VALUES = np.array([1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0.0, 1.5, -1.5])


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
