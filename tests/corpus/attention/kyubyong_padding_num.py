"""Kyubyong/transformer style: padding_num = -2 ** 32 + 1, key masks added, future masks via tf.where.

TF1 code translated to NumPy; the fill is -4294967295 (not -1e9, not -inf).
"""
# source: Kyubyong/transformer:modules.py (scaled_dot_product_attention, mask)
# license: Apache-2.0
# adapted: tf -> NumPy (tf.where/tf.equal -> np.where/np.equal, LinearOperatorLowerTriangular -> np.tril,
#   tf.nn.softmax -> max-shifted exp / sum); no batch dim, no dropout/summary; the exercise's boolean
#   mask is applied the way mask(type="future") applies its tril (np.where(masks == 0, paddings, inputs));
#   its mask() helper is renamed _mask() because the exercise's parameter is called mask;
#   causal_mask/padding_mask return booleans built like the "future" tril and the "key" key_masks.
import numpy as np


def causal_mask(n):
    diag_vals = np.ones((n, n))  # (T_q, T_k)
    tril = np.tril(diag_vals)  # (T_q, T_k)
    return np.not_equal(tril, 0)


def padding_mask(n_valid, n):
    key_masks = np.arange(n) >= n_valid  # (T_k,) True at padding
    key_masks = np.tile(np.expand_dims(key_masks, 0), [n, 1])  # (T_q, T_k)
    return np.logical_not(key_masks)


def _mask(inputs, masks):
    """Masks inputs where masks is 0/False.
    inputs: 2d array. (T_q, T_k)
    masks: 2d array. (T_q, T_k)
    """
    padding_num = -2 ** 32 + 1
    paddings = np.ones_like(inputs) * padding_num
    outputs = np.where(np.equal(masks, 0), paddings, inputs)
    return outputs


def attention(Q, K, V, mask=None):
    '''See 3.2.1.
    Q: Packed queries. 2d array. [T_q, d_k].
    K: Packed keys. 2d array. [T_k, d_k].
    V: Packed values. 2d array. [T_k, d_v].
    mask: A 2d boolean array with shape of [T_q, T_k], True = may attend
    '''
    d_k = Q.shape[-1]

    # dot product
    outputs = np.matmul(Q, np.transpose(K, [1, 0]))  # (T_q, T_k)

    # scale
    outputs /= d_k ** 0.5

    # masking
    if mask is not None:
        outputs = _mask(outputs, mask)

    # softmax
    outputs = np.exp(outputs - np.max(outputs, axis=-1, keepdims=True))
    outputs = outputs / np.sum(outputs, axis=-1, keepdims=True)
    attention = outputs

    # weighted sum (context vectors)
    outputs = np.matmul(outputs, V)  # (T_q, d_v)

    return outputs, attention
