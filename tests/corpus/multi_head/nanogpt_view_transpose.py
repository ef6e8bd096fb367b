"""nanoGPT style: B, T, C = x.size(); q.view(B, T, n_head, C // n_head).transpose(1, 2);
att.masked_fill(... == 0, float('-inf')); y.transpose(1, 2).contiguous().view(B, T, C).

PyTorch translated to NumPy.
"""
# source: karpathy/nanoGPT:model.py (CausalSelfAttention)
# license: MIT
# adapted: torch -> NumPy; separate W_q, W_k, W_v, W_o (no bias) instead of c_attn(...).split(n_embd)
#   and c_proj; `assert config.n_embd % config.n_head == 0` became `raise ValueError`; B = 1
#   (x[None] in, [0] out); the causal tril buffer is replaced by the exercise's optional mask
#   (None = no masking); dropout and the flash path dropped; F.softmax -> max-shifted exp / sum;
#   cross_attention completed in the same manual-attention style.
import math

import numpy as np


def _softmax(att):
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    return att / att.sum(axis=-1, keepdims=True)


def multi_head_attention(x, W_q, W_k, W_v, W_o, n_head, mask=None):
    x = x[None]
    B, T, C = x.shape  # batch size, sequence length, embedding dimensionality (n_embd)
    if C % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")

    # calculate query, key, values for all heads in batch and move head forward to be the batch dim
    q, k, v = x @ W_q, x @ W_k, x @ W_v
    k = k.reshape(B, T, n_head, C // n_head).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    q = q.reshape(B, T, n_head, C // n_head).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
    v = v.reshape(B, T, n_head, C // n_head).transpose(0, 2, 1, 3)  # (B, nh, T, hs)

    # manual implementation of attention
    att = (q @ k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(k.shape[-1]))
    if mask is not None:
        att = np.where(mask[None, None, :T, :T] == 0, float('-inf'), att)
    att = _softmax(att)
    y = att @ v  # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)
    y = y.transpose(0, 2, 1, 3).reshape(B, T, C)  # re-assemble all head outputs side by side

    # output projection
    y = y @ W_o
    return y[0]


def cross_attention(x_dec, x_enc, W_q, W_k, W_v, mask=None):
    q, k, v = x_dec @ W_q, x_enc @ W_k, x_enc @ W_v
    att = (q @ k.T) * (1.0 / math.sqrt(k.shape[-1]))
    if mask is not None:
        att = np.where(mask == 0, float('-inf'), att)
    att = _softmax(att)
    y = att @ v
    return y, att
