"""Reference solution for the saturation exercise."""

import numpy as np


def dot_variances(d_k: int, trials: int, rng: np.random.Generator) -> tuple[float, float]:
    """(variance of q·k, variance of q·k / sqrt(d_k)) over ``trials`` fresh pairs."""
    q = rng.standard_normal((trials, d_k))  # (T, d_k)
    k = rng.standard_normal((trials, d_k))  # (T, d_k)
    s = np.sum(q * k, axis=-1)  # (T,) one score per pair
    return float(np.var(s)), float(np.var(s / np.sqrt(d_k)))


def mean_top_weight(d_k: int, n_keys: int, trials: int, rng: np.random.Generator,
                    scaled: bool = True) -> float:
    """Average over trials of the largest softmax weight of one query against n_keys keys."""
    q = rng.standard_normal((trials, 1, d_k))  # (T, 1, d_k)
    k = rng.standard_normal((trials, n_keys, d_k))  # (T, n_keys, d_k)
    att = (q @ k.transpose(0, 2, 1))[:, 0, :]  # (T, n_keys)
    if scaled:
        att = att / np.sqrt(d_k)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)  # (T, n_keys), rows sum to 1
    return float(att.max(axis=-1).mean())
