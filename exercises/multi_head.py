"""Exercise multi_head: multi-head attention and cross-attention.

Part 1 -- ``multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None)``.
``X`` holds N tokens of width d_model, shape ``(N, d_model)``; the four
weight matrices are ``(d_model, d_model)``. Split the work into ``n_heads``
heads of width ``d_k = d_model / n_heads``:

* head h uses the contiguous block of columns ``h*d_k : (h+1)*d_k`` of
  ``W_q``, ``W_k`` and ``W_v`` (so its queries, keys and values are those
  columns of ``X @ W_q``, ``X @ W_k``, ``X @ W_v``);
* each head is scaled dot-product attention on its own block,
  ``softmax(Q_h K_h^T / sqrt(d_k)) V_h`` -- note: the head's width d_k, not
  d_model;
* ``mask`` (optional) is a boolean ``(N, N)`` array shared by all heads;
  True means "query i may attend to key j". A masked score becomes -inf
  before the softmax, so its weight is exactly 0;
* the heads' outputs, each ``(N, d_k)``, are concatenated side by side in
  head order (head 0 first) into ``(N, d_model)`` and multiplied by ``W_o``.

Return the ``(N, d_model)`` float64 result. When ``n_heads`` does not divide
``d_model`` the heads cannot have equal widths: raise ``ValueError`` (do not
quietly drop columns).

Part 2 -- ``cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None)``.
One head of attention between two sequences: the queries come from the
decoder, ``Q = X_dec @ W_q`` with ``X_dec`` of shape ``(N_q, d)``; the keys
and values come from the encoder, ``K = X_enc @ W_k``, ``V = X_enc @ W_v``
with ``X_enc`` of shape ``(N_k, d)``. ``W_q`` and ``W_k`` are ``(d, d_k)``,
``W_v`` is ``(d, d_v)``; scale the scores by ``sqrt(d_k)`` where d_k is the
number of columns of ``W_q``. ``mask`` (optional) is boolean ``(N_q, N_k)``.
Return ``(Y, A)``: the weights ``A`` of shape ``(N_q, N_k)`` (each row sums
to 1) and the output ``Y = A V`` of shape ``(N_q, d_v)``.

Both functions must leave their arguments unchanged, treat ``mask=None`` as
"nothing is masked", and stay finite when the scores run into the thousands
(where a plain ``np.exp`` overflows). You may assume every row of a mask has at
least one True entry.

Read first: lesson 5, course/lessons/05_multi_head_attention.ipynb.
Check yourself with ``attn-grade check multi_head``.
"""

import numpy as np


def multi_head_attention(X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray,
                         W_o: np.ndarray, n_heads: int, mask=None) -> np.ndarray:
    """Multi-head self-attention of ``X`` (N, d_model); returns (N, d_model) float64.

    Raises ValueError when ``n_heads`` does not divide d_model.
    """
    raise NotImplementedError("multi_head_attention is not written yet")


def cross_attention(X_dec: np.ndarray, X_enc: np.ndarray, W_q: np.ndarray, W_k: np.ndarray,
                    W_v: np.ndarray, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """Queries from ``X_dec`` (N_q, d), keys and values from ``X_enc`` (N_k, d).

    Returns ``(Y, A)`` with Y (N_q, d_v) and A (N_q, N_k); d_k = W_q.shape[1].
    """
    raise NotImplementedError("cross_attention is not written yet")
