"""Reference solution for the hand_scores exercise: one query, two keys, by hand."""

import sympy


def scaled_scores() -> tuple:
    """(s1, s2): s_j = q . k_j / sqrt(d_k)."""
    d_k = 2
    q = (1, 0)  # the query, shape (d_k,)
    k = ((1, 0), (0, 1))  # the keys k1, k2, shape (2, d_k)
    return tuple(sum(qi * ki for qi, ki in zip(q, kj)) / sympy.sqrt(d_k) for kj in k)  # (2,)


def attention_weights() -> tuple:
    """(a1, a2): the softmax of the scaled scores."""
    e = [sympy.exp(s) for s in scaled_scores()]  # (2,)
    return tuple(ej / sum(e) for ej in e)  # (2,), sums to 1


def attention_output() -> tuple:
    """(y1, y2) = a1 v1 + a2 v2."""
    v = ((4, 0), (0, 4))  # the values v1, v2, shape (2, d_v)
    att = attention_weights()  # (2,)
    return tuple(sum(att[j] * v[j][c] for j in range(2)) for c in range(2))  # (d_v,)
