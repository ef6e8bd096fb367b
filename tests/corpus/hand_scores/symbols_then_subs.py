"""Right, the derivation done once with SymPy symbols (scores s1, s2, softmax, output) and then the
problem's numbers substituted with .subs: q, k and v are sympy Matrices, the score q.dot(k)/sqrt(d_k).
Everything comes back as a tuple of exact SymPy expressions."""
# source: style the lessons invite (lesson 1 works the general formula first, then the numbers)
# license: n/a
# adapted: n/a
import sympy as sp

s1, s2 = sp.symbols("s1 s2", real=True)
a1_formula = sp.exp(s1) / (sp.exp(s1) + sp.exp(s2))
a2_formula = sp.exp(s2) / (sp.exp(s1) + sp.exp(s2))

q = sp.Matrix([1, 0])
k1, k2 = sp.Matrix([1, 0]), sp.Matrix([0, 1])
v1, v2 = sp.Matrix([4, 0]), sp.Matrix([0, 4])
d_k = 2


def scaled_scores():
    return (q.dot(k1) / sp.sqrt(d_k), q.dot(k2) / sp.sqrt(d_k))


def attention_weights():
    values = dict(zip((s1, s2), scaled_scores()))
    return (a1_formula.subs(values), a2_formula.subs(values))


def attention_output():
    a1, a2 = attention_weights()
    y = a1 * v1 + a2 * v2
    return (y[0], y[1])
