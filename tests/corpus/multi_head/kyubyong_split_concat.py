"""Kyubyong/transformer style: heads made with concat(split(Q, num_heads, axis=2), axis=0) -> (h*N, T, d/h),
restored with concat(split(outputs, num_heads, axis=0), axis=2); fill padding_num = -2 ** 32 + 1.

TF1 translated to NumPy; tf.split -> np.split, which raises ValueError for uneven heads.
"""
# source: Kyubyong/transformer:modules.py (multihead_attention, scaled_dot_product_attention, mask)
# license: Apache-2.0
# adapted: tf -> NumPy; tf.layers.dense (with bias) becomes the given W_q, W_k, W_v (no bias) and the
#   output projection W_o is applied after restoring the shape, where the original instead adds the
#   residual and layer-normalises (the exercise's contract); N = 1 batch axis added/removed; the
#   key_masks/causality flags replaced by the exercise's boolean mask applied like mask(type="future");
#   dropout/summary dropped; tf.nn.softmax -> max-shifted exp / sum; cross_attention completed.
import numpy as np


def mask(inputs, masks):
    padding_num = -2 ** 32 + 1
    paddings = np.ones_like(inputs) * padding_num
    return np.where(np.equal(masks, 0), paddings, inputs)


def scaled_dot_product_attention(Q, K, V, key_masks=None):
    d_k = Q.shape[-1]

    # dot product
    outputs = np.matmul(Q, np.transpose(K, [0, 2, 1]))  # (N, T_q, T_k)

    # scale
    outputs /= d_k ** 0.5

    # key masking
    if key_masks is not None:
        outputs = mask(outputs, key_masks)

    # softmax
    outputs = np.exp(outputs - np.max(outputs, axis=-1, keepdims=True))
    outputs = outputs / np.sum(outputs, axis=-1, keepdims=True)
    attention = outputs

    # weighted sum (context vectors)
    outputs = np.matmul(outputs, V)  # (N, T_q, d_v)
    return outputs, attention


def multi_head_attention(queries, W_q, W_k, W_v, W_o, num_heads, mask=None):
    queries = queries[None]  # (N, T_q, d_model)
    keys = values = queries

    # Linear projections
    Q = np.matmul(queries, W_q)  # (N, T_q, d_model)
    K = np.matmul(keys, W_k)  # (N, T_k, d_model)
    V = np.matmul(values, W_v)  # (N, T_k, d_model)

    # Split and concat
    Q_ = np.concatenate(np.split(Q, num_heads, axis=2), axis=0)  # (h*N, T_q, d_model/h)
    K_ = np.concatenate(np.split(K, num_heads, axis=2), axis=0)  # (h*N, T_k, d_model/h)
    V_ = np.concatenate(np.split(V, num_heads, axis=2), axis=0)  # (h*N, T_k, d_model/h)

    # Attention
    outputs, _ = scaled_dot_product_attention(Q_, K_, V_, mask)

    # Restore shape
    outputs = np.concatenate(np.split(outputs, num_heads, axis=0), axis=2)  # (N, T_q, d_model)

    # Output projection
    outputs = np.matmul(outputs, W_o)
    return outputs[0]


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    Q = np.matmul(X_dec[None], W_q)  # (N, T_q, d_k)
    K = np.matmul(X_enc[None], W_k)  # (N, T_k, d_k)
    V = np.matmul(X_enc[None], W_v)  # (N, T_k, d_v)
    outputs, attention = scaled_dot_product_attention(Q, K, V, mask)
    return outputs[0], attention[0]
