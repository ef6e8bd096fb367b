"""Right, the weights written with cosh: for two scores, a_j = exp(s_j - m) / (2 cosh(d)) with m the
mean of the scores and d half their difference, so a1 = exp(d) / (2 cosh(d)); the score written
1/sqrt(2) and the second as sympy.Integer(0)."""
# source: style the lessons invite (the stub lists cosh among the accepted exact forms)
# license: n/a
# adapted: n/a
import sympy


def scaled_scores():
    return 1 / sympy.sqrt(2), sympy.Integer(0)


def attention_weights():
    s1, s2 = scaled_scores()
    d = (s1 - s2) / 2
    return sympy.exp(d) / (2 * sympy.cosh(d)), sympy.exp(-d) / (2 * sympy.cosh(d))


def attention_output():
    a1, a2 = attention_weights()
    return 4 * a1, 4 * a2
