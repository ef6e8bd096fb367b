"""Named Hypothesis strategies shared by the graders.

Small shapes and bounded, finite float64 elements, so every counterexample is
short enough to read in feedback. Exercise-specific strategies live in the
exercise's grader.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

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
