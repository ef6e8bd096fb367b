"""Correct: einsum for the products, masked fill with -inf on a copy, masks from index comparisons."""
import numpy as np


def causal_mask(n):
    idx = np.arange(n)
    return idx[:, None] >= idx[None, :]


def padding_mask(n_valid, n):
    keys = np.arange(n) < n_valid
    return np.repeat(keys[None, :], n, axis=0)


def attention(Q, K, V, mask=None):
    scores = np.einsum("qd,kd->qk", Q, K) / np.sqrt(K.shape[1])
    if mask is not None:
        scores[~np.asarray(mask, dtype=bool)] = -np.inf  # scores is a new array, so this is safe
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=1, keepdims=True)
    return np.einsum("qk,kv->qv", weights, V), weights
