"""Mistake: the two-key softmax written through tanh without halving the difference: a1 = (1 + tanh(s1 - s2))/2
instead of (1 + tanh((s1 - s2)/2))/2. The scores are right; the weights still add up to 1, but they are
the softmax of twice the scores (which is the softmax of q·k_j multiplied by √d_k)."""
# diagnosis: twice your scores
# never: multiplied by √d_k instead of divided
from sympy import Integer, Rational, sqrt, tanh


def scaled_scores():
    return (sqrt(Rational(1, 2)), Integer(0))


def attention_weights():
    s1, s2 = scaled_scores()
    a1 = (1 + tanh(s1 - s2)) / 2
    return (a1, 1 - a1)


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
