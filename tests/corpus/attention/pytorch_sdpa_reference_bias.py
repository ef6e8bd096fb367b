"""PyTorch docs "efficient implementation equivalent" style: a zero attn_bias, masked_fill_ with -inf
where attn_mask.logical_not(), then attn_weight += attn_bias.

An additive -inf bias, built in place on a fresh zeros array.
"""
# source: https://PyTorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
# license: BSD-3-Clause (PyTorch)
# adapted: torch -> NumPy (masked_fill_ -> boolean-index assignment on the fresh attn_bias,
#   logical_not -> np.logical_not, torch.softmax -> max-shifted exp / sum); dropout, scale=,
#   enable_gqa and float masks dropped; is_causal's tril(diagonal=0) used for causal_mask;
#   padding_mask completed in the same style; attn_mask renamed mask (the exercise's
#   keyword); returns (output, attn_weight).
import math

import numpy as np


def causal_mask(L):
    return np.tril(np.ones((L, L), dtype=bool), k=0)


def padding_mask(n_valid, S):
    temp_mask = np.ones((S, S), dtype=bool)
    temp_mask[:, n_valid:] = False
    return temp_mask


def attention(query, key, value, mask=None):
    L, S = query.shape[-2], key.shape[-2]
    scale_factor = 1 / math.sqrt(query.shape[-1])
    attn_bias = np.zeros((L, S), dtype=query.dtype)
    if mask is not None:
        attn_bias[np.logical_not(mask)] = float("-inf")
    attn_weight = query @ np.swapaxes(key, -2, -1) * scale_factor
    attn_weight += attn_bias
    attn_weight = np.exp(attn_weight - attn_weight.max(axis=-1, keepdims=True))
    attn_weight = attn_weight / attn_weight.sum(axis=-1, keepdims=True)
    return attn_weight @ value, attn_weight
