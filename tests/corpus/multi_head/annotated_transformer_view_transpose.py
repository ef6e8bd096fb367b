"""The Annotated Transformer style: a list comprehension of lin(x).view(nbatches, -1, h, d_k).transpose(1, 2),
batched attention with masked_fill(mask == 0, -1e9), then transpose(1, 2).contiguous().view(...).

PyTorch translated to NumPy (view -> reshape, transpose(1, 2) -> swapaxes(1, 2)).
"""
# source: harvardnlp/annotated-transformer:the_annotated_transformer.py (attention, MultiHeadedAttention)
# license: MIT
# adapted: torch -> NumPy; the four nn.Linear layers become the given W_q, W_k, W_v, W_o (no bias);
#   `assert d_model % h == 0` became `raise ValueError` (the exercise asks for ValueError);
#   nbatches = 1 (X gets a leading axis, the result loses it); dropout dropped; mask.unsqueeze(1)
#   -> mask[None, None]; softmax is the max-shifted exp / sum torch computes; cross_attention
#   completed with the same attention() (one head, queries from x_dec, keys/values from x_enc).
import math

import numpy as np


def attention(query, key, value, mask=None):
    "Compute 'Scaled Dot Product Attention'"
    d_k = query.shape[-1]
    scores = np.matmul(query, np.swapaxes(key, -2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask == 0, -1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p_attn = np.exp(scores)
    p_attn = p_attn / p_attn.sum(axis=-1, keepdims=True)
    return np.matmul(p_attn, value), p_attn


def multi_head_attention(x, W_q, W_k, W_v, W_o, h, mask=None):
    "Implements Figure 2"
    d_model = x.shape[-1]
    if d_model % h != 0:
        raise ValueError("d_model must be divisible by h")
    # We assume d_v always equals d_k
    d_k = d_model // h
    if mask is not None:
        # Same mask applied to all h heads.
        mask = mask[None, None]
    query = key = value = x[None]
    nbatches = query.shape[0]

    # 1) Do all the linear projections in batch from d_model => h x d_k
    query, key, value = [
        np.swapaxes((x @ W).reshape(nbatches, -1, h, d_k), 1, 2)
        for W, x in zip((W_q, W_k, W_v), (query, key, value))
    ]

    # 2) Apply attention on all the projected vectors in batch.
    x, attn = attention(query, key, value, mask=mask)

    # 3) "Concat" using a view and apply a final linear.
    x = np.swapaxes(x, 1, 2).reshape(nbatches, -1, h * d_k)
    del query
    del key
    del value
    return (x @ W_o)[0]


def cross_attention(x_dec, x_enc, W_q, W_k, W_v, mask=None):
    "Encoder-decoder attention: queries from the decoder, keys and values from the memory."
    m = x_enc
    return attention(x_dec @ W_q, m @ W_k, m @ W_v, mask=mask)
