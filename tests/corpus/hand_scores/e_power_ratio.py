"""Right, written straight from the paper working: s1 = sqrt(2)/2, s2 = 0, the weights as
E**x / (E**x + E**y) with sympy.E, and y = (4 a1, 4 a2) after sympy.simplify."""
# source: style the lessons invite (exp(x)/(exp(x)+exp(y)) typed as on paper)
# license: n/a
# adapted: n/a
import sympy as sp


def scaled_scores():
    return sp.sqrt(2) / 2, sp.S.Zero


def attention_weights():
    x, y = scaled_scores()
    return sp.E**x / (sp.E**x + sp.E**y), sp.E**y / (sp.E**x + sp.E**y)


def attention_output():
    a1, a2 = attention_weights()
    return sp.simplify(4 * a1), sp.simplify(4 * a2)
