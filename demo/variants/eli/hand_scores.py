"""hand_scores: Eli's answers, on her own numbers (attn-grade variant hand_scores showed them)."""
from sympy import exp, sqrt

# my numbers: q = (-2, 0), k1 = (2, -2), k2 = (-2, 2), v1 = (2, 0), v2 = (0, 3), d_k = 2
# q.k1 = -4 and q.k2 = 4, so the scores are -4/sqrt(2) and 4/sqrt(2)


def scaled_scores():
    return (-2 * sqrt(2), 2 * sqrt(2))


def attention_weights():
    return (1 / (1 + exp(4 * sqrt(2))), 1 / (1 + exp(-4 * sqrt(2))))


def attention_output():
    a1, a2 = attention_weights()
    return (2 * a1, 3 * a2)
