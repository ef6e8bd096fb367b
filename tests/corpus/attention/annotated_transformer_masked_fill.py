"""The Annotated Transformer style: masked_fill(mask == 0, -1e9), subsequent_mask via triu == 0.

PyTorch code translated line by line to NumPy; masked scores get the finite fill -1e9.
"""
# source: harvardnlp/annotated-transformer:the_annotated_transformer.py (attention, subsequent_mask, Batch)
# license: MIT
# adapted: torch -> NumPy (masked_fill -> np.where, matmul/transpose(-2, -1) -> np.matmul/swapaxes,
#   scores.softmax(dim=-1) -> max-shifted exp / sum, the way torch computes it); dropout dropped;
#   subsequent_mask without the leading batch dim of 1 and named causal_mask; padding_mask written
#   like Batch.src_mask ((src != pad).unsqueeze(-2)), then repeated to (n, n).
import math

import numpy as np


def causal_mask(size):
    "Mask out subsequent positions."
    attn_shape = (size, size)
    subsequent_mask = np.triu(np.ones(attn_shape), k=1).astype(np.uint8)
    return subsequent_mask == 0


def padding_mask(n_valid, n):
    "Hide padding keys: like Batch.src_mask = (src != pad).unsqueeze(-2)."
    pad = 0
    src = np.where(np.arange(n) < n_valid, 1, pad)
    src_mask = np.expand_dims(src != pad, -2)
    return np.repeat(src_mask, n, axis=0)


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
