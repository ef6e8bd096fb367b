"""Right, from the general formula for the variance of a product of independent variables,
Var(XY) = σx² σy² + μx² σy² + μy² σx², written with SymPy symbols and then evaluated at μ = 0, σ = 1;
the sum over coordinates done with sympy.summation, the scaling as Var(cX) = c² Var(X)."""
# source: the variance-of-a-product formula as implemented in public code, e.g. the R function
#         var_prod(x, y, var_x, var_y) ("Variance product formula") and the MATLAB
#         varindepprod(mu, var) (prod(var) + var(1)*mu(2)^2 + var(2)*mu(1)^2); index excerpts
# license: unknown
# adapted: ported to SymPy symbols; evaluated with .subs at mean 0 and variance 1; summation over
#          i = 1..d_k added
import sympy as sp

d_k = sp.Symbol("d_k", positive=True, integer=True)

mu_q, mu_k = sp.symbols("mu_q mu_k", real=True)
var_q, var_k = sp.symbols("sigma2_q sigma2_k", nonnegative=True)
STANDARD = {mu_q: 0, mu_k: 0, var_q: 1, var_k: 1}


def product_mean():
    return (mu_q * mu_k).subs(STANDARD)


def product_variance():
    var_prod = var_q * var_k + mu_q**2 * var_k + mu_k**2 * var_q
    return var_prod.subs(STANDARD)


def dot_variance():
    i = sp.Symbol("i", integer=True, positive=True)
    return sp.summation(product_variance(), (i, 1, d_k))


def scaled_dot_variance():
    c = 1 / sp.sqrt(d_k)
    return c**2 * dot_variance()
