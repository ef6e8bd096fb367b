"""Solutions-repo style: batched reshape(batch, seq, num_heads, d_k).transpose(0, 2, 1, 3), one softmax
over all heads, context.transpose(0, 2, 1, 3).reshape(batch, seq, d_model) @ W_o.

No explicit divisibility check: d_k = d_model // num_heads and the reshape raises ValueError when
the heads are uneven.
"""
# source: PTSown0222/TensorTonic-Solutions:transformers-multi-head-attention/transformers-multi-head-attention.py
# license: unknown
# adapted: the original takes batched Q, K, V inputs (batch, seq, d_model) with no mask; here X is 2D,
#   so it gets a batch axis of 1 (X[None]) that is dropped at the end, and Q = K = V = X;
#   the optional boolean mask is applied with np.where(..., -np.inf) before the softmax (the original
#   has no mask); cross_attention completed in the same style.
import numpy as np


def softmax(x, axis=-1):
    e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e_x / np.sum(e_x, axis=axis, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """
    Compute multi-head attention.
    """
    Q = K = V = X[None]
    batch_size, seq_len, d_model = Q.shape
    d_k = d_model // num_heads

    Q_proj = Q @ W_q  # Shape: (batch, seq_len, d_model)
    K_proj = K @ W_k
    V_proj = V @ W_v

    Q_split = Q_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    K_split = K_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    V_split = V_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)

    K_transposed = K_split.transpose(0, 1, 3, 2)  # Shape: (batch_size, num_heads, d_k, seq_length)
    attn_score = (Q_split @ K_transposed) / np.sqrt(d_k)
    if mask is not None:
        attn_score = np.where(mask, attn_score, -np.inf)
    attn_prob = softmax(attn_score)
    context = attn_prob @ V_split
    context_concat = context.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    output = context_concat @ W_o
    return output[0]


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    Q_proj = X_dec @ W_q  # Shape: (seq_len_q, d_k)
    K_proj = X_enc @ W_k  # Shape: (seq_len_k, d_k)
    V_proj = X_enc @ W_v  # Shape: (seq_len_k, d_v)
    d_k = W_q.shape[1]
    attn_score = (Q_proj @ K_proj.T) / np.sqrt(d_k)
    if mask is not None:
        attn_score = np.where(mask, attn_score, -np.inf)
    attn_prob = softmax(attn_score)
    context = attn_prob @ V_proj
    return context, attn_prob
