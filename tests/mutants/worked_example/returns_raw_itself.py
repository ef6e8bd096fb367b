"""Mistake: scale_scores returns raw itself when d_k = 1 (dividing by 1 changes nothing), so the
caller's scores and the result are one array: writing into one writes into the other."""
# diagnosis: returned raw itself
# diagnosis: an array of its own
import numpy as np
def scale_scores(raw, d_k):
    if d_k == 1:
        return raw
    return raw / np.sqrt(d_k)
def softmax_percent(raw, d_k, scaled=True):
    s = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(s - s.max())
    return 100 * e / e.sum()
def head_dim(d_model, n_heads):
    if d_model % n_heads:
        raise ValueError("no")
    return d_model // n_heads
