"""Right, the moments worked out by integrating the standard normal density with SymPy:
p(x) = exp(-x**2/2)/sqrt(2*pi), E[X] = Integral(x p), E[X**2] = Integral(x**2 p) over (-oo, oo),
then independence (E[XY] = E[X] E[Y], E[X²Y²] = E[X²] E[Y²]) and the sum over the d_k coordinates."""
# source: EngrDevDom/Everyday-Coding-in-Python: Probability_Density_Function.py and
#         sakib4535/Pythoncode_challenges: Master_Math/Solving_Calculus_Problem/probability_density_function.py
#         (p = exp(-(x - 10)**2/2)/sqrt(2*pi); Integral(p, (x, S.NegativeInfinity, S.Infinity)).doit())
# license: unknown
# adapted: mean 10 -> 0; the integrals of x*p and x**2*p instead of p over an interval; .doit() kept
#          exact (no .evalf()); the moments combined into the exercise's four answers
from sympy import Integral, S, Symbol, exp, pi, sqrt

d_k = Symbol("d_k", positive=True, integer=True)

x = Symbol("x", real=True)
p = exp(-x**2 / 2) / sqrt(2 * pi)
E_x = Integral(x * p, (x, S.NegativeInfinity, S.Infinity)).doit()
E_x2 = Integral(x**2 * p, (x, S.NegativeInfinity, S.Infinity)).doit()


def product_mean():
    return E_x * E_x                      # E[q_i] E[k_i]


def product_variance():
    return E_x2 * E_x2 - product_mean()**2   # E[q_i²] E[k_i²] - (E[q_i k_i])²


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return dot_variance() / d_k
