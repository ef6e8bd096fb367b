"""Right, head_dim in the style of a PyTorch MultiHeadAttention that wraps its divisibility assert in
try/except AssertionError and re-raises ValueError("dModel must be divisible by nHeads"), then takes
headSize = dModel // nHeads: camelCase names kept. (The assert is skipped under python -O, so there the
ValueError would not come; the course runs Python normally.) The softmax is a temperature softmax
(logits / temperature) with temperature = sqrt(d_k) for the scaled case, shifted by its maximum."""
# source: public PyTorch file "class MultiHeadAttention(Module): def __init__(self, dModel: int = 512,
#         nHeads: int = 8): try: assert dModel // nHeads * nHeads == dModel except AssertionError: raise
#         ValueError(...)" (two copies in the index; repository name not given by the index);
#         softmax: pluu2/MLhelper: attention.py (softmaxT(logits, temperature=1))
# license: unknown
# adapted: the check lifted out of __init__; softmaxT shifted by the largest logit before np.exp (the
#          source exponentiates directly and overflows for large scores) and taken along the last axis;
#          scaled=True uses scale_scores, i.e. temperature sqrt(d_k); * 100
import numpy as np


def softmaxT(logits, temperature=1):
    z = logits / temperature
    z = z - np.max(z)
    return np.exp(z) / np.sum(np.exp(z), axis=-1)


def scale_scores(raw, d_k):
    return np.divide(raw, np.sqrt(d_k), dtype=np.float64)


def softmax_percent(raw, d_k, scaled=True):
    logits = scale_scores(raw, d_k) if scaled else raw
    return 100.0 * softmaxT(logits)


def head_dim(d_model, n_heads):
    dModel, nHeads = d_model, n_heads
    try:
        assert dModel // nHeads * nHeads == dModel
    except AssertionError:
        raise ValueError("dModel must be divisible by nHeads")
    headSize = dModel // nHeads
    return headSize
