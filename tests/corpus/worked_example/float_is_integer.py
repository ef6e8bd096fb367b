"""Right, the way the lesson's arithmetic reads (d_k = d_model / H): true division, then a check that
the quotient is a whole number with float.is_integer(), raising ValueError otherwise, and int(...) of
it. The softmax is a plain Python loop with math.exp over the shifted scores, turned back into a
float64 array; scale_scores uses np.true_divide and copies, so raw is never touched."""
# source: style the lessons invite (lesson 3: "d_k = d_model / H"; the brief's int(d_model / n_heads)
#         after a divisibility check); the division d_model / n_heads itself is in public code, e.g. the
#         MultiheadedAttention with "raise AttentionError('Number of heads does not divide model
#         dimension'); self.d_k = d_model / n_heads" (index excerpt, repository not named)
# license: n/a
# adapted: AttentionError(Exception) -> ValueError; the float kept only until it is checked, then int()
import math

import numpy as np


def scale_scores(raw, d_k):
    return np.true_divide(np.array(raw, dtype=np.float64), math.sqrt(d_k))


def softmax_percent(raw, d_k, scaled=True):
    scores = scale_scores(raw, d_k) if scaled else np.array(raw, dtype=np.float64)
    biggest = max(scores)
    exps = [math.exp(s - biggest) for s in scores]
    total = sum(exps)
    return np.array([100 * e / total for e in exps])


def head_dim(d_model, n_heads):
    size = d_model / n_heads
    if not size.is_integer():
        raise ValueError(f"{n_heads} heads cannot split d_model = {d_model} evenly")
    return int(size)
