"""Mistake: math.exp of each score, one at a time, without subtracting the row's maximum: large
scores raise OverflowError ("math range error"), the same mistake as an np.exp that overflows."""
# diagnosis: subtract each row's maximum score
# diagnosis: OverflowError
import math
import numpy as np
def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))
def padding_mask(n_valid, n):
    return np.broadcast_to(np.arange(n) < n_valid, (n, n)).copy()
def attention(Q, K, V, mask=None):
    d_k = Q.shape[1]
    A = np.zeros((Q.shape[0], K.shape[0]))
    for i in range(Q.shape[0]):
        w = []
        for j in range(K.shape[0]):
            if mask is not None and not mask[i, j]:
                w.append(0.0)
            else:
                w.append(math.exp(float(Q[i] @ K[j]) / math.sqrt(d_k)))
        A[i] = np.array(w) / sum(w)
    return A @ V, A
