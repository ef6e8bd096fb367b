"""Exercise hand_scores: attention by hand, one query and two keys.

Work out scaled dot-product attention, softmax(q Kᵀ / √d_k) V, for the
smallest interesting case, and give every number EXACTLY, as a SymPy value
(``sympy.sqrt(2)``, ``sympy.exp(...)``, ``sympy.Rational(1, 2)``, plain
integers), not as a float such as 0.7071:

    q  = (1, 0)                       the query
    k₁ = (1, 0),  k₂ = (0, 1)         the two keys
    v₁ = (4, 0),  v₂ = (0, 4)         the two values
    d_k = 2                           the size of a query or key

Each function takes no arguments and returns a tuple of two exact values:

* ``scaled_scores()``     -> (s₁, s₂), where s_j = q · k_j / √d_k;
* ``attention_weights()`` -> (a₁, a₂), the softmax of (s₁, s₂): positive
  weights that add up to exactly 1;
* ``attention_output()``  -> (y₁, y₂), the two coordinates of
  y = a₁ v₁ + a₂ v₂.

Any equal exact form counts (SymPy decides the equality), built from whole
numbers, fractions (``sympy.Rational``), ``sqrt``, ``exp`` and ``log``, the
trigonometric and hyperbolic functions and their inverses (``tanh``,
``cosh``, ``atan``, ...), ``root``, ``Abs`` and ``sign``, as SymPy objects or
typed as text ("3*exp(1/2)/sqrt(5)"). Not accepted: factorial, gamma,
binomial, Integral, erf, floor and other special functions; write the closed
form instead. A float that is numerically right gets half credit.

Working it out on paper first is the point of the exercise: the functions
only record your answers.

Your course may give each student their own numbers instead of those above
(your instructor says so): in a notebook, the cell after this text shows yours;
with .py files, ``attn-grade variant hand_scores`` does, once
``attn-grade variant --id ID`` knows your student id.

Read first: lesson 1, course/lessons/01_queries_keys_values.ipynb.
Check yourself with ``attn-grade check hand_scores``.
"""

import sympy  # noqa: F401 - you will need it


def scaled_scores() -> tuple:
    """(s₁, s₂): the dot products q · k_j divided by √d_k, exact."""
    raise NotImplementedError("scaled_scores is not written yet")


def attention_weights() -> tuple:
    """(a₁, a₂): the softmax of the scaled scores, exact."""
    raise NotImplementedError("attention_weights is not written yet")


def attention_output() -> tuple:
    """(y₁, y₂): the coordinates of a₁ v₁ + a₂ v₂, exact."""
    raise NotImplementedError("attention_output is not written yet")
