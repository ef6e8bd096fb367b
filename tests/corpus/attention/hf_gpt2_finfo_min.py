"""Hugging Face GPT-2 style: torch.where(causal_mask, attn_weights, torch.finfo(dtype).min).

The fill is the most negative finite float of the scores' dtype (np.finfo(np.float64).min).
"""
# source: huggingface/transformers:src/transformers/models/gpt2/modeling_gpt2.py (GPT2Attention._attn)
# license: Apache-2.0
# adapted: torch -> NumPy (torch.where -> np.where, torch.finfo -> np.finfo, nn.functional.softmax ->
#   max-shifted exp / sum); the registered tril "bias" buffer becomes the exercise's mask argument
#   (None = nothing masked), sliced the same way for N_q != N_k; the additive attention_mask,
#   head_mask and dropout are dropped; scaling by value.size(-1) ** 0.5 becomes key.shape[-1] ** 0.5
#   (the exercise's d_k; HF has d_k == d_v); causal_mask/padding_mask written with np.tril/np.ones
#   like the buffer; returns (attn_output, attn_weights).
import numpy as np


def causal_mask(max_positions):
    bias = np.tril(np.ones((max_positions, max_positions), dtype=bool))
    return bias


def padding_mask(n_valid, n):
    bias = np.ones((n, n), dtype=bool)
    bias[:, n_valid:] = False
    return bias


def attention(query, key, value, mask=None):
    attn_weights = np.matmul(query, np.swapaxes(key, -1, -2))

    attn_weights = attn_weights / np.full([], key.shape[-1] ** 0.5, dtype=attn_weights.dtype)

    if mask is not None:
        mask_value = np.finfo(attn_weights.dtype).min
        mask_value = np.full([], mask_value, dtype=attn_weights.dtype)
        attn_weights = np.where(mask, attn_weights, mask_value)

    attn_weights = np.exp(attn_weights - attn_weights.max(axis=-1, keepdims=True))
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)

    attn_output = np.matmul(attn_weights, value)
    return attn_output, attn_weights
