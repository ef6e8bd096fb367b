"""Exercise attention: scaled dot-product attention and masks.

Write three functions.

``causal_mask(n)`` returns an ``(n, n)`` array of dtype ``bool`` that is True
exactly where key ``j`` may be seen by query ``i`` in a decoder: ``j <= i``
(a token sees itself and the tokens before it, never the ones after).
Rows are queries, columns are keys.

``padding_mask(n_valid, n)`` returns an ``(n, n)`` ``bool`` array that is True
exactly where key ``j < n_valid``: the last ``n - n_valid`` positions are
padding, and no query may attend to them (the padded *keys*, i.e. columns,
are switched off; every row looks the same).

``attention(Q, K, V, mask=None)`` computes

    S = Q Kᵀ / √d_k,   A = softmax of each row of S,   Y = A V

with ``Q`` of shape ``(N_q, d_k)``, ``K`` of shape ``(N_k, d_k)`` and ``V`` of
shape ``(N_k, d_v)`` (float64). It returns the tuple ``(Y, A)``: ``Y`` of shape
``(N_q, d_v)`` and ``A`` of shape ``(N_q, N_k)``. With ``N_q == N_k`` it is
self-attention; with queries from one sequence and keys/values from another it
is cross-attention, and the same code must serve both.

``mask`` is None or a boolean ``(N_q, N_k)`` array, True = may attend. A masked
score must be treated as minus infinity (or a very large negative number), so
its weight in ``A`` is exactly 0 and each row of ``A`` still sums to 1. Every
row of the mask has at least one True.

What must hold (the grader checks these): each row of ``A`` is a probability
distribution (entries >= 0, sum 1); ``Y == A @ V``; permuting the queries
permutes the rows of ``Y`` and ``A``; permuting keys and values together leaves
``Y`` unchanged; with ``mask=None`` no key is masked; ``A`` stays finite even
when the scores run into the thousands, where a plain ``np.exp`` overflows;
the inputs, the mask included, are not modified.

Read first: lesson 4, course/lessons/04_masks_cross_attention_cost.ipynb.
Check yourself with ``attn-grade check attention``.
"""

import numpy as np


def causal_mask(n: int) -> np.ndarray:
    """(n, n) bool array, True where key j <= query i."""
    raise NotImplementedError("causal_mask is not written yet")


def padding_mask(n_valid: int, n: int) -> np.ndarray:
    """(n, n) bool array, True where key j < n_valid."""
    raise NotImplementedError("padding_mask is not written yet")


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask=None) -> tuple:
    """Scaled dot-product attention. Returns (Y, A): Y (N_q, d_v), A (N_q, N_k)."""
    raise NotImplementedError("attention is not written yet")
