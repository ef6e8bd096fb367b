"""TensorFlow transformer tutorial style: mask is 1 where *blocked*, added as mask * -1e9.

create_look_ahead_mask = 1 - band_part(ones, -1, 0); scaled_attention_logits += (mask * -1e9).
"""
# source: https://github.com/hsuanchunlin/NLP-notes (notes following the TensorFlow "Transformer model for
#   language understanding" tutorial: create_padding_mask, create_look_ahead_mask, scaled_dot_product_attention)
# license: unknown (the tutorial code itself is Apache-2.0)
# adapted: tf -> NumPy (tf.linalg.band_part(ones, -1, 0) -> np.tril, tf.matmul(transpose_b=True) -> q @ k.T,
#   tf.nn.softmax -> max-shifted exp / sum); the exercise passes True = may attend, so the tutorial's
#   0/1 "blocked" mask is 1 - mask and causal_mask/padding_mask return (tutorial mask == 0);
#   padding_mask builds the tutorial's seq == 0 mask from n_valid; returns (output, attention_weights).
import numpy as np


def create_padding_mask(seq):
    seq = np.equal(seq, 0).astype(np.float64)
    return seq[np.newaxis, :]  # (1, seq_len)


def create_look_ahead_mask(size):
    mask = 1 - np.tril(np.ones((size, size)))
    return mask  # (seq_len, seq_len)


def causal_mask(n):
    return create_look_ahead_mask(n) == 0


def padding_mask(n_valid, n):
    seq = np.where(np.arange(n) < n_valid, 1, 0)  # token ids, 0 = <pad>
    return np.repeat(create_padding_mask(seq), n, axis=0) == 0


def attention(q, k, v, mask=None):
    """Calculate the attention weights.
    q, k, v must have matching leading dimensions.
    k, v must have matching penultimate dimension, i.e.: seq_len_k = seq_len_v.

    Returns:
      output, attention_weights
    """
    matmul_qk = np.matmul(q, k.T)  # (..., seq_len_q, seq_len_k)

    # scale matmul_qk
    dk = np.float64(k.shape[-1])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)

    # add the mask to the scaled tensor.
    if mask is not None:
        scaled_attention_logits += ((1 - mask) * -1e9)

    # softmax is normalized on the last axis (seq_len_k) so that the scores
    # add up to 1.
    e = np.exp(scaled_attention_logits - np.max(scaled_attention_logits, axis=-1, keepdims=True))
    attention_weights = e / np.sum(e, axis=-1, keepdims=True)  # (..., seq_len_q, seq_len_k)

    output = np.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)

    return output, attention_weights
