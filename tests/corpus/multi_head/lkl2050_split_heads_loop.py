"""Practice-notebook style: split_heads = reshape(T, n_heads, d_h).transpose(1, 0, 2), then a Python for
loop over heads calling a single-head self_attention, np.concatenate(outs, axis=-1).

A private _softmax helper with max shift; masked scores get -1e9 via np.where.
"""
# source: lkl2050/pandas_practice_code:deep_learning/Implement Multi-Head Attention.ipynb
# license: unknown
# adapted: the notebook's multi_head_attention(Q, K, V, n_heads) takes already-projected Q, K, V and has
#   no output projection and no mask; here it computes them with compute_qkv (the notebook's own helper),
#   multiplies the concatenation by W_o, and passes the optional mask to each head, filled with -1e9 as
#   in the same author's masked-attention notebook; `assert D % n_heads == 0` became `raise ValueError`;
#   cross_attention completed with the same helpers.
import numpy as np


def _softmax(x, axis=-1):
    x = x - np.max(x, axis=axis, keepdims=True)  # stable
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def compute_qkv(X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray):
    """X: (T, D), W_*: (D, D). Returns Q,K,V each (T, D)."""
    return X @ W_q, X @ W_k, X @ W_v


def self_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask=None):
    """Single-head scaled dot-product attention for (T, d)."""
    d_k = Q.shape[-1]
    scores = (Q @ K.T) / np.sqrt(d_k)          # (T, T)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    attn = _softmax(scores, axis=-1)           # row-wise softmax
    return attn @ V, attn                      # (T, d)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads: int, mask=None):
    """
    X: (T, D). n_heads must divide D.
    Returns concatenated head outputs times W_o: (T, D).
    """
    Q, K, V = compute_qkv(X, W_q, W_k, W_v)
    T, D = Q.shape
    if D % n_heads != 0:
        raise ValueError("D must be divisible by n_heads")
    d_h = D // n_heads

    # reshape to (H, T, d_h)
    def split_heads(X):
        return X.reshape(T, n_heads, d_h).transpose(1, 0, 2)

    Qh, Kh, Vh = map(split_heads, (Q, K, V))   # each (H, T, d_h)

    # compute attention per head
    outs = []
    for h in range(n_heads):
        out_h, _ = self_attention(Qh[h], Kh[h], Vh[h], mask)  # (T, d_h)
        outs.append(out_h)

    # concat heads: (T, D)
    return np.concatenate(outs, axis=-1) @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    Q = X_dec @ W_q
    K, V = X_enc @ W_k, X_enc @ W_v
    return self_attention(Q, K, V, mask)
