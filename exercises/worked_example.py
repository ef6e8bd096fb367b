"""Exercise worked_example: "the cat sat", one attention head by hand.

The sentence "the cat sat" has three tokens and d_model = 24; one head looks at
it with the query of "cat". Its raw scores q·k against the keys of "the",
"cat" and "sat" are 3.877, 14.905 and 8.293. Write the three small functions
that turn such raw scores into attention weights, and find out how large each
head is when d_model is split between several heads.

* ``scale_scores(raw, d_k)`` divides the raw scores q·k by sqrt(d_k) and
  returns a new float64 array of the same shape: one query's scores, or a
  matrix of them, a query per row (here d_k = 24: one head spans the whole
  d_model).
* ``softmax_percent(raw, d_k, scaled=True)`` turns one query's raw scores
  (a 1-D float64 array) into attention weights in percent: non-negative, adding
  up to 100, the largest score getting the largest weight. With ``scaled=True``
  the scores are scaled first (use ``scale_scores``); with ``scaled=False`` the
  raw scores go straight into the softmax. ``scaled`` may be given by position
  or by name (``softmax_percent(raw, 24, False)`` is ``scaled=False``).
  Compare both for "the cat sat": what happens to the weights without scaling?
* ``head_dim(d_model, n_heads)`` returns the size d_k of each head when
  d_model is split evenly between n_heads heads, as an ``int``. When n_heads
  does not divide d_model the split is impossible: raise ``ValueError``.

Your course may give each student their own raw scores for "the cat sat"
(your instructor says so): in a notebook, the cell after this text shows yours;
with .py files, ``attn-grade variant worked_example`` does, once
``attn-grade variant --id ID`` knows your student id.

Neither function may modify ``raw``, and ``softmax_percent`` must stay finite
for large scores too (hundreds or thousands, where a plain ``np.exp``
overflows).

Read first: lesson 3, course/lessons/03_the_cat_sat.ipynb.
Check yourself with ``attn-grade check worked_example``.
"""

import numpy as np


def scale_scores(raw: np.ndarray, d_k: int) -> np.ndarray:
    """The raw scores divided by sqrt(d_k); same shape, float64."""
    raise NotImplementedError("scale_scores is not written yet")


def softmax_percent(raw: np.ndarray, d_k: int, scaled: bool = True) -> np.ndarray:
    """Softmax weights of one query's scores, in percent (they add up to 100)."""
    raise NotImplementedError("softmax_percent is not written yet")


def head_dim(d_model: int, n_heads: int) -> int:
    """Size of each head, d_model / n_heads as an int; ValueError if the split is uneven."""
    raise NotImplementedError("head_dim is not written yet")
