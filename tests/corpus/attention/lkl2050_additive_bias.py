"""Practice-notebook style: an additive 0 / -1e9 float mask built with np.where(m==1, -1e9, 0.0).

Handles 2D input by adding a batch axis (Q[None, ...]) and stripping it again; in-place /= on
the freshly computed weights.
"""
# source: lkl2050/pandas_practice_code:deep_learning/Implement Masked Self-Attention.ipynb
# license: unknown
# adapted: the notebook's mask is already the additive float bias (0 allowed, -1e9 blocked); the
#   exercise passes booleans, so attention turns them into that bias with the notebook's own
#   np.where(..., -1e9, 0.0) idiom; d_k taken from K (the notebook used D of Q, equal there);
#   returns (out, attn); causal_mask/padding_mask return booleans (the notebook's m == 0);
#   padding_mask completed in the same style.
import numpy as np


def causal_mask(T: int):
    m = np.triu(np.ones((T, T), dtype=np.float64), k=1)  # 1 above diagonal
    return m == 0


def padding_mask(n_valid: int, T: int):
    m = np.zeros((T, T), dtype=np.float64)
    m[:, n_valid:] = 1  # 1 on padded keys
    return m == 0


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask=None):
    """
    Q: (T_q, D), K: (T_k, D), V: (T_k, D_v), or with a leading batch axis
    mask: (T_q, T_k) booleans, True = allowed; turned into 0 for allowed, -1e9 for masked.
    Returns: (out, attn)
    """
    # handle 2D -> 3D for unified math
    added_batch = False
    if Q.ndim == 2:
        Q = Q[None, ...]; K = K[None, ...]; V = V[None, ...]
        added_batch = True

    d_k = K.shape[-1]

    # scores: (B,T_q,T_k)
    scores = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(d_k)

    # apply mask (broadcast OK). mask zeros keep scores; large negative blocks
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9)

    # stable softmax over last dim (keys)
    scores_shift = scores - np.max(scores, axis=-1, keepdims=True)
    attn = np.exp(scores_shift)
    attn /= np.sum(attn, axis=-1, keepdims=True)

    # output: (B,T_q,D_v)
    out = np.matmul(attn, V)

    if added_batch:
        out = out[0]
        attn = attn[0]
    return out, attn
