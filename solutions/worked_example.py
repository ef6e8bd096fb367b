"""Reference solution for the worked_example exercise."""

import numpy as np


def scale_scores(raw: np.ndarray, d_k: int) -> np.ndarray:
    """The raw scores divided by sqrt(d_k); same shape, float64."""
    return np.asarray(raw, dtype=np.float64) / np.sqrt(d_k)  # (N_k,)


def softmax_percent(raw: np.ndarray, d_k: int, scaled: bool = True) -> np.ndarray:
    """Softmax weights of one query's scores, in percent (they add up to 100)."""
    att = scale_scores(raw, d_k) if scaled else np.asarray(raw, dtype=np.float64)  # (N_k,)
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    return 100.0 * att / att.sum(axis=-1, keepdims=True)  # (N_k,), sums to 100


def head_dim(d_model: int, n_heads: int) -> int:
    """Size of each head, d_model / n_heads as an int; ValueError if the split is uneven."""
    if d_model % n_heads != 0:
        raise ValueError(f"n_heads = {n_heads} does not divide d_model = {d_model}")
    return d_model // n_heads
