"""Tutorial style: boolean indexing scores[mask] = -1e9 on the freshly computed score matrix.

Step-by-step commented NumPy from a "paper explained" page; max-shift softmax by hand.
"""
# source: https://www.ainiketan.in/papers/08-transformer-2017/sections/06-the-code/
# license: unknown
# adapted: the page's mask is True = "mask out"; the exercise's is True = "may attend", so the
#   fill is scores[~mask] = -1e9; causal_mask/padding_mask written with np.triu/np.ones as the
#   page does for its decoder mask, returning the may-attend booleans.
import numpy as np


def causal_mask(n):
    future = np.triu(np.ones((n, n)), k=1).astype(bool)   # True above the diagonal = future
    return ~future


def padding_mask(n_valid, n):
    pad = np.zeros((n, n), dtype=bool)
    pad[:, n_valid:] = True                                # padded keys (columns)
    return ~pad


def attention(Q, K, V, mask=None):
    """
    Compute Attention(Q, K, V) = softmax(Q·Kᵀ / √dₖ) · V

    Q: (seq_len_q, d_k)  — query matrix
    K: (seq_len_k, d_k)  — key matrix
    V: (seq_len_k, d_v)  — value matrix
    mask: optional (seq_len_q, seq_len_k) boolean — True = may attend
    """
    d_k = Q.shape[-1]                      # key dimension (e.g. 64)

    # Step 1: Q·Kᵀ — all pairwise dot products in one matrix multiply
    scores = Q @ K.T                       # shape: (seq_len_q, seq_len_k)

    # Step 2: Scale to prevent softmax saturation
    scores = scores / np.sqrt(d_k)         # divide by √dₖ

    # Step 3: Apply mask (prevent attending to masked positions)
    if mask is not None:
        scores[~mask] = -1e9               # large negative → softmax ≈ 0

    # Step 4: Softmax row-wise → attention weights (each row sums to 1)
    scores_shifted = scores - scores.max(axis=-1, keepdims=True)  # stability
    exp_scores     = np.exp(scores_shifted)
    attn_weights   = exp_scores / exp_scores.sum(axis=-1, keepdims=True)

    # Step 5: Weighted sum of values
    output = attn_weights @ V              # shape: (seq_len_q, d_v)

    return output, attn_weights
