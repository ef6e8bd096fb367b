"""Right, the two-key softmax written as the logistic function through tanh: a1 = (1 + tanh(d/2))/2
with d = s1 - s2, a2 = 1 - a1; the score given as sqrt(Rational(1, 2)). Someone who knows that a
two-way softmax is a sigmoid writes it this way."""
# source: style the lessons invite (the stub lists tanh among the accepted exact forms)
# license: n/a
# adapted: n/a
from sympy import Integer, Rational, sqrt, tanh


def scaled_scores():
    return (sqrt(Rational(1, 2)), Integer(0))


def attention_weights():
    s1, s2 = scaled_scores()
    a1 = (1 + tanh((s1 - s2) / 2)) / 2
    return (a1, 1 - a1)


def attention_output():
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
