"""Exercise online_softmax: the softmax block by block, as FlashAttention computes it.

FlashAttention never holds a whole row of scores: it reads the row in blocks and
keeps two running numbers per row, the largest score seen so far, m, and the sum
of e^(z_j - m) over the scores seen so far, l. When a block brings a larger
maximum m_new, the sum kept so far was taken against the old maximum m_old, and
is multiplied by the rescaling factor before the block's own terms are added.

Write:

* ``rescale_factor(m_old, m_new)``: the factor, as an EXACT SymPy value, that
  turns a term e^(z - m_old) into e^(z - m_new). ``m_old`` and ``m_new`` are
  whole numbers (Python ints, between -100 and 100) with m_old <= m_new. Any
  equal exact form counts (SymPy decides), not a float: use ``sympy.exp``, not
  ``math.exp`` or ``np.exp``.
* ``online_softmax(z, block)``: the softmax of ``z`` along its last axis (the
  same numbers as the ``softmax`` exercise's ``softmax(z)``), computed by reading
  the last axis in blocks of ``block`` entries, z[..., 0:block],
  z[..., block:2*block], ..., the last block shorter when ``block`` does not
  divide n, with a running maximum and a running sum.

``online_softmax`` must:

* accept ``z`` of shape (n,) or (rows, n), float64, n >= 1, and ``block`` an
  int >= 1 (it may be larger than n), and return a new float64 array of z's
  shape, leaving ``z`` unchanged; every block size gives the softmax;
* stay finite for scores as large as +1e4 or as small as -1e4 (exp(1e4)
  overflows: never take np.exp of a score that has not had the maximum taken
  off);
* give weight exactly 0 to a masked score, written ``-np.inf`` or ``-1e9`` (as
  the causal mask of the attention exercise fills it). Every row has at least
  one score that is not masked, but a block may be masked entirely, the first
  one too: that must not give nan (what is e^(m_old - m_new) when both are
  -inf?).

Read first: lesson 6, course/lessons/06_online_softmax.ipynb.
Check yourself with ``attn-grade check online_softmax``.
"""

import numpy as np
import sympy


def rescale_factor(m_old: int, m_new: int):
    """The exact factor that turns e^(z - m_old) into e^(z - m_new), a SymPy value."""
    raise NotImplementedError("rescale_factor is not written yet")


def online_softmax(z: np.ndarray, block: int) -> np.ndarray:
    """Softmax of ``z`` along its last axis, read in blocks of ``block``; z's shape, float64."""
    raise NotImplementedError("online_softmax is not written yet")
