"""saturation: Cleo's answers."""

import numpy as np


def dot_variances(d_k: int, trials: int, rng: np.random.Generator) -> tuple[float, float]:
    """(variance of q·k, variance of q·k / sqrt(d_k)) over ``trials`` fresh pairs."""
    raise NotImplementedError("dot_variances is not written yet")


def mean_top_weight(d_k: int, n_keys: int, trials: int, rng: np.random.Generator,
                    scaled: bool = True) -> float:
    """Average over trials of the largest softmax weight of one query against n_keys keys."""
    raise NotImplementedError("mean_top_weight is not written yet")
