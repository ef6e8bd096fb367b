"""TensorFlow transformer tutorial style: split_heads = reshape(x, (batch_size, -1, num_heads, depth)) then
transpose(perm=[0, 2, 1, 3]); scaled_attention_logits += (mask * -1e9) with mask = 1 where blocked;
concat_attention = reshape(transpose(scaled_attention, [0, 2, 1, 3]), (batch_size, -1, d_model)).
"""
# source: https://github.com/hsuanchunlin/NLP-notes (notes following the TensorFlow "Transformer model for
#   language understanding" tutorial: MultiHeadAttention.split_heads/call, scaled_dot_product_attention)
# license: unknown (the tutorial code itself is Apache-2.0)
# adapted: tf -> NumPy (tf.reshape/transpose/matmul -> np.*, tf.nn.softmax -> max-shifted exp / sum);
#   Dense layers wq, wk, wv, dense become W_q, W_k, W_v, W_o without bias; batch_size = 1;
#   `assert d_model % self.num_heads == 0` became `raise ValueError`; the exercise's mask is
#   True = may attend, so the tutorial's blocked-mask is (1 - mask); cross_attention completed with the
#   tutorial's scaled_dot_product_attention (q from the decoder, k, v from the encoder output).
import numpy as np


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))  # (..., seq_len_q, seq_len_k)

    # scale matmul_qk
    dk = np.float64(k.shape[-1])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)

    # add the mask to the scaled tensor.
    if mask is not None:
        scaled_attention_logits += (mask * -1e9)

    # softmax is normalized on the last axis (seq_len_k) so that the scores
    # add up to 1.
    e = np.exp(scaled_attention_logits - np.max(scaled_attention_logits, axis=-1, keepdims=True))
    attention_weights = e / np.sum(e, axis=-1, keepdims=True)  # (..., seq_len_q, seq_len_k)

    output = np.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)

    return output, attention_weights


def split_heads(x, batch_size, num_heads, depth):
    """Split the last dimension into (num_heads, depth).
    Transpose the result such that the shape is (batch_size, num_heads, seq_len, depth)
    """
    x = np.reshape(x, (batch_size, -1, num_heads, depth))
    return np.transpose(x, axes=[0, 2, 1, 3])


def multi_head_attention(x, wq, wk, wv, dense, num_heads, mask=None):
    d_model = x.shape[-1]
    if d_model % num_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    depth = d_model // num_heads

    batch_size = 1
    q = np.matmul(x, wq)  # (batch_size, seq_len, d_model)
    k = np.matmul(x, wk)  # (batch_size, seq_len, d_model)
    v = np.matmul(x, wv)  # (batch_size, seq_len, d_model)

    q = split_heads(q, batch_size, num_heads, depth)  # (batch_size, num_heads, seq_len_q, depth)
    k = split_heads(k, batch_size, num_heads, depth)  # (batch_size, num_heads, seq_len_k, depth)
    v = split_heads(v, batch_size, num_heads, depth)  # (batch_size, num_heads, seq_len_v, depth)

    look_ahead = None if mask is None else (1 - mask)
    scaled_attention, attention_weights = scaled_dot_product_attention(q, k, v, look_ahead)

    scaled_attention = np.transpose(scaled_attention, axes=[0, 2, 1, 3])  # (batch_size, seq_len_q, num_heads, depth)

    concat_attention = np.reshape(scaled_attention, (batch_size, -1, d_model))  # (batch_size, seq_len_q, d_model)

    output = np.matmul(concat_attention, dense)  # (batch_size, seq_len_q, d_model)

    return output[0]


def cross_attention(x_dec, enc_output, wq, wk, wv, mask=None):
    q = np.matmul(x_dec, wq)
    k = np.matmul(enc_output, wk)
    v = np.matmul(enc_output, wv)
    padding = None if mask is None else (1 - mask)
    return scaled_dot_product_attention(q, k, v, padding)
