"""Assessment-notebook style: np.where(mask, scaled_scores, -1e9), batched (B, T, d) with transpose(0, 2, 1).

Heavily commented step-by-step code; a separate softmax(x, axis=-1) helper with max shift.
"""
# source: RAJGUPTA-001/ml-intern-assessment:ml-assignment/task_2_/attention.ipynb
# license: unknown
# adapted: the notebook works on batched (batch, seq, d) arrays; the exercise's are 2D, so attention
#   adds a batch axis of 1 with [np.newaxis] and drops it at the end; causal_mask taken from the
#   notebook's demo (np.tril(np.ones(...)).astype(bool)); padding_mask completed in that style.
import numpy as np


def softmax(x, axis=-1):
    # Subtract max for numerical stability (prevents overflow)
    x_shifted = x - np.max(x, axis=axis, keepdims=True)

    # Compute exponentials
    exp_x = np.exp(x_shifted)

    # Normalize by sum to get probabilities
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def causal_mask(seq_len):
    # Create causal mask: lower triangular matrix
    # True for positions that should be attended to
    return np.tril(np.ones((seq_len, seq_len)), k=0).astype(bool)


def padding_mask(n_valid, seq_len):
    # True for real (non-padding) keys, the same for every query
    valid = np.arange(seq_len) < n_valid
    return np.broadcast_to(valid, (seq_len, seq_len)).copy()


def attention(Q, K, V, mask=None):
    # Compute Scaled Dot-Product Attention.
    # Formula: Attention(Q, K, V) = softmax(Q · K^T / sqrt(d_k)) · V
    Q, K, V = Q[np.newaxis], K[np.newaxis], V[np.newaxis]

    # Step 1: Compute raw attention scores (Q · K^T)
    # Result shape: (batch_size, seq_len_q, seq_len_k)
    attention_scores = np.matmul(Q, K.transpose(0, 2, 1))

    # Step 2: Scale by square root of key dimension (d_k)
    d_k = K.shape[-1]
    scaled_scores = attention_scores / np.sqrt(d_k)

    # Step 3: Apply mask (optional)
    if mask is not None:
        # Where mask is False/0, replace with large negative number
        scaled_scores = np.where(mask, scaled_scores, -1e9)

    # Step 4: Apply softmax to get attention weights (probabilities)
    attention_weights = softmax(scaled_scores, axis=-1)

    # Step 5: Compute weighted sum of values
    # Result shape: (batch_size, seq_len_q, d_v)
    output = np.matmul(attention_weights, V)

    return output[0], attention_weights[0]
