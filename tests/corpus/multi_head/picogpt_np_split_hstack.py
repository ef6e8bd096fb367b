"""picoGPT style: np.split into heads, a list comprehension of per-head attention, np.hstack to merge.

Additive (1 - mask) * -1e10 bias; np.split itself raises ValueError when the heads are uneven.
"""
# source: jaymody/picoGPT:gpt2.py (softmax, attention, mha)
# license: MIT
# adapted: separate W_q, W_k, W_v, W_o without biases instead of the fused c_attn/c_proj linear
#   (so no np.split into qkv); the causal mask is replaced by the exercise's optional boolean mask,
#   turned into picoGPT's (1 - mask) * -1e10 bias (None -> no bias); np.split(..., n_head) is kept and
#   provides the ValueError for uneven heads; cross_attention completed in the same style and
#   returning the weights too.
import numpy as np


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
    return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head, mask=None):  # [n_seq, n_embd] -> [n_seq, n_embd]
    # qkv projection
    qkv = [x @ w_q, x @ w_k, x @ w_v]  # [3, n_seq, n_embd]

    # split into heads
    qkv_heads = list(map(lambda x: np.split(x, n_head, axis=-1), qkv))  # [3, n_seq, n_embd] -> [3, n_head, n_seq, n_embd/n_head]

    # mask to hide inputs from being attended to
    mask = 0.0 if mask is None else (1 - mask) * -1e10  # [n_seq, n_seq]

    # perform attention over each head
    out_heads = [attention(q, k, v, mask) for q, k, v in zip(*qkv_heads)]  # [n_head, n_seq, n_embd/n_head]

    # merge heads
    x = np.hstack(out_heads)  # [n_head, n_seq, n_embd/n_head] -> [n_seq, n_embd]

    # out projection
    x = x @ w_o  # [n_seq, n_embd] -> [n_seq, n_embd]

    return x


def cross_attention(x_dec, x_enc, w_q, w_k, w_v, mask=None):  # [n_q, d], [n_k, d] -> [n_q, d_v], [n_q, n_k]
    q, k, v = x_dec @ w_q, x_enc @ w_k, x_enc @ w_v
    mask = 0.0 if mask is None else (1 - mask) * -1e10  # [n_q, n_k]
    w = softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask)
    return w @ v, w
