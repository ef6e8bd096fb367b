"""Shreyansh Singh's FlashAttention from scratch (flash_attention_causal.py): each key block's own
maximum and sum first (masked scores filled with NEG_INF = -1e10, their exponentials set to 0, and
EPSILON added to the block's sum), then merged into the running statistics with exp(m_i - m_new)
and exp(m_block - m_new); the weights as its backward pass recomputes them, (1 / l) * exp(S - m).
"""
# source: https://github.com/shreyansh26/FlashAttention-PyTorch/blob/main/flash_attention_causal.py
#   (flash_attention_causal_forward and, for the weights, flash_attention_causal_backward's P_ij)
# license: MIT (Copyright (c) 2023 Shreyansh Singh)
# adapted: torch to NumPy; the scores are given (no Q, K: z's rows are the query rows, its last axis
#   the keys, cut in blocks of `block` in place of KV_BLOCK_SIZE), the causal mask read from z (a
#   score of -inf is masked; -1e9 is kept as a score, whose exponential is 0 all the same); the output
#   accumulator O left out; rescale_factor written with sympy.exp from its np.exp(m_i - m_new).
import numpy as np
import sympy

NEG_INF = -1e10  # -infinity
EPSILON = 1e-10


def rescale_factor(m_old, m_new):
    return sympy.exp(m_old - m_new)


def online_softmax(z, block):
    S = np.asarray(z, dtype=np.float64)
    valid_mask = S > NEG_INF
    S = np.where(valid_mask, S, NEG_INF)
    l = np.zeros(S.shape[:-1] + (1,))
    m = np.full(S.shape[:-1] + (1,), NEG_INF)

    seq_k = S.shape[-1]
    Tc = int(np.ceil(seq_k / block))
    for j in range(Tc):
        start_j = j * block
        end_j = min(start_j + block, seq_k)
        S_ij = S[..., start_j:end_j]
        causal_mask = valid_mask[..., start_j:end_j]

        m_block_ij = np.max(S_ij, axis=-1, keepdims=True)
        P_ij = np.exp(S_ij - m_block_ij)
        P_ij = np.where(causal_mask, P_ij, 0.0)

        l_block_ij = np.sum(P_ij, axis=-1, keepdims=True) + EPSILON

        mi_new = np.maximum(m_block_ij, m)
        li_new = np.exp(m - mi_new) * l + np.exp(m_block_ij - mi_new) * l_block_ij
        l = li_new
        m = mi_new

    P = (1 / l) * np.exp(S - m)
    return np.where(valid_mask, P, 0.0)
