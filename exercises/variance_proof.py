"""Exercise variance_proof: why the scores are divided by √d_k.

Let q and k be vectors in ℝ^{d_k} whose 2·d_k entries q_i, k_i are
independent standard normal random variables (mean 0, variance 1). The score
of attention is the dot product q·k = q_1 k_1 + ... + q_{d_k} k_{d_k}.

Work out, EXACTLY, as SymPy values or plain integers (not floats):

* ``product_mean()``        -> E[q_i k_i], the mean of one term;
* ``product_variance()``    -> Var(q_i k_i), the variance of one term;
* ``dot_variance()``        -> Var(q·k), which depends on the size d_k: give
  an expression in the symbol ``d_k`` defined below, valid for every d_k
  (not the value for one particular d_k such as 64);
* ``scaled_dot_variance()`` -> Var(q·k / √d_k).

Use the module-level symbol ``d_k`` (a positive integer) wherever the size
appears. Any equal exact form counts (SymPy decides the equality), built from
whole numbers, fractions (``sympy.Rational``), ``sqrt``, ``exp`` and ``log``,
the trigonometric and hyperbolic functions and their inverses (``tanh``,
``cosh``, ``atan``, ...), ``root``, ``Abs``, ``sign``, ``Max``, ``Min`` and
``Sum``, as SymPy objects or typed as text ("d_k/2"). Not accepted:
factorial, gamma, binomial, Integral, erf, floor and other special functions;
write the closed form instead.

Useful facts: for independent X and Y, E[XY] = E[X] E[Y]; Var(X) = E[X²] −
E[X]²; the variance of a sum of independent terms is the sum of their
variances; Var(cX) = c² Var(X).

The written proof of these results is asked for in the course's notebook
(variance_proof.ipynb, below the checks) and marked by hand there; these
functions record the results.

Read first: lesson 2, course/lessons/02_why_scale_by_sqrt_dk.ipynb.
Check yourself with ``attn-grade check variance_proof``.
"""

import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    """E[q_i k_i] for one coordinate i, exact."""
    raise NotImplementedError("product_mean is not written yet")


def product_variance():
    """Var(q_i k_i) for one coordinate i, exact."""
    raise NotImplementedError("product_variance is not written yet")


def dot_variance():
    """Var(q·k), an expression in the symbol d_k."""
    raise NotImplementedError("dot_variance is not written yet")


def scaled_dot_variance():
    """Var(q·k / √d_k), exact."""
    raise NotImplementedError("scaled_dot_variance is not written yet")
