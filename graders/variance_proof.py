"""Grader for variance_proof: four exact results, one of them an expression in d_k.

The public checks test what any right answer must look like (exact values,
non-negative variances, Var(q·k) growing with d_k, the scaled variance not
depending on d_k); the hidden checks (graders/hidden/variance_proof.py) compare each result
exactly with the reference and name the common mistake a wrong answer matches.
"""

import cmath
from functools import lru_cache

from .kit import (Domain, Fail, Mistake, Outcome, StudentError, TimeUp, check, fail, float_born, module, time_limit,
                  to_expr)

# What the stub promises (kit/domain.py): its functions take no arguments; no check narrows it.
DOMAIN = Domain()

sp = module("sympy")  # imported at first use (kit/lazy.py)



def d_k():
    """The symbol d_k (the students' symbol is matched by name); SymPy keeps one per name and
    assumptions, so every call gives the same. A function, so that SymPy is imported only by a
    check that uses it."""
    return sp.Symbol("d_k", positive=True, integer=True)


def symbols():
    return {"d_k": d_k()}

PROBES = (1, 2, 3, 7, 64)
FUNCS = ("product_mean", "product_variance", "dot_variance", "scaled_dot_variance")
VARIANCES = FUNCS[1:]


# ------------------------------------------------------------------ helpers
def _expr(sub, func):
    """The student's answer as a SymPy expression in at most d_k, or Fail."""
    expr, why = to_expr(sub.call(func), symbols())
    if expr is None:
        fail(f"{func}(): {why}")
    extra = sorted(s.name for s in expr.free_symbols if s.name != "d_k")
    if extra:
        fail(f"{func}(): you gave {sp.sstr(expr)}, which uses {', '.join(extra)}; only the symbol d_k "
             f"(defined at the top of the file) may appear")
    return expr


@lru_cache(maxsize=4096)
def _at(expr, n):
    """The value of ``expr`` at d_k = n as a complex number, or None (also after a second's work)."""
    with time_limit(1.0) as timed_out:
        try:
            z = complex(expr.xreplace({d_k(): sp.Integer(n)}).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError, TimeUp):
            return None
    return z if cmath.isfinite(z) and not timed_out() else None


def _values(func, expr):
    """``expr`` at each probe d_k, or Fail naming the first size where it has no finite value."""
    values = [_at(expr, n) for n in PROBES]
    for n, v in zip(PROBES, values):
        if v is None:
            fail(f"{func}(): you gave {sp.sstr(expr)}, which does not evaluate to a finite number "
                 f"at d_k = {n}")
    return values


def same_at_probes(a, b):
    """Numerically equal at every probe d_k (loosely when ``a`` holds floats): a hint, not a verdict."""
    tol = 1e-6 if a.atoms(sp.Float) else 1e-12
    for n in PROBES:
        za, zb = _at(a, n), _at(b, n)
        if za is None or zb is None or abs(za - zb) > tol * max(1.0, abs(zb)):
            return False
    return True


# Known mistakes of the scaling step, as functions of the student's own Var(q·k).
OWN_DOT = Mistake("your scaling step Var(q·k) / (√d_k)² is right, so the problem is in dot_variance()", None)
BY_DK = Mistake("q·k was divided by d_k instead of √d_k", None)
NOT_SQUARED = Mistake("the factor was not squared: Var(cX) = c² Var(X)", None)
LEFT_OUT = Mistake("your scaled variance is just dot_variance(): the division by √d_k was left out", None)


# ------------------------------------------------------------------ public checks
@check("every answer is an exact real value, and variances are never negative", 0.5, uses=FUNCS)
def answers_are_values(sub, ref):
    floats, fractions, born = [], [], []
    for func in FUNCS:
        expr = _expr(sub, func)
        born += float_born(expr)
        if expr.atoms(sp.Float):
            floats.append(f"{func}() = {sp.sstr(expr)}")
        elif float_born(expr):
            fractions.append(f"{func}() = {sp.sstr(expr)}")
        for n, z in zip(PROBES, _values(func, expr)):
            if abs(z.imag) > 1e-12:
                fail(f"{func}(): you gave {sp.sstr(expr)}, which is not real at d_k = {n}")
            if func in VARIANCES and z.real < -1e-12:
                fail(f"{func}(): you gave {sp.sstr(expr)}, which is negative at d_k = {n}; "
                     f"a variance is an average of squares and is never negative")
    if floats:
        fail(f"{'; '.join(floats)}: {'this is a float' if len(floats) == 1 else 'these are floats'}, and an "
             f"exact form is expected (integers, sympy.Rational, the symbol d_k; not a simulation or a "
             f"decimal)", 0.5, Outcome.PARTIAL)
    if fractions:
        digits = max(len(f.split("/")[1]) for f in born)
        fail(f"{'; '.join(fractions)}: a fraction with a denominator of {digits} digits is what a float turned into "
             f"a fraction (sympy.Rational(0.9987...), nsimplify) gives, not an exact value; an exact form is expected "
             f"(integers, sympy.Rational(1, 2), the symbol d_k), worked out, not converted from a simulation or a "
             f"decimal", 0.5, Outcome.PARTIAL)


@check("dot_variance is an expression in d_k", 0.5, uses=("dot_variance",))
def dot_variance_depends_on_dk(sub, ref):
    expr = _expr(sub, "dot_variance")
    values = _values("dot_variance", expr)
    if d_k() not in expr.free_symbols or all(abs(v - values[0]) < 1e-9 for v in values):
        fail(f"dot_variance(): you gave {sp.sstr(expr)}, which is the same for every d_k. Var(q·k) "
             f"changes with the size d_k: an expression in the symbol d_k is expected, one that holds for "
             f"every d_k")


@check("scaled_dot_variance does not depend on d_k", 0.5, uses=("scaled_dot_variance",))
def scaled_variance_is_constant(sub, ref):
    scaled = _expr(sub, "scaled_dot_variance")
    values = _values("scaled_dot_variance", scaled)
    if all(abs(v - values[0]) < 1e-9 * max(1.0, abs(values[0])) for v in values):
        return
    try:  # the hint compares with the student's own Var(q·k), when there is one
        dot = _expr(sub, "dot_variance")
    except (Fail, StudentError):
        dot = sp.nan
    d = d_k()
    found = [m for m, wrong in ((OWN_DOT, dot / d), (BY_DK, dot / d**2), (NOT_SQUARED, dot / sp.sqrt(d)),
                                (LEFT_OUT, dot)) if same_at_probes(scaled, wrong)]
    fail(f"scaled_dot_variance(): you gave {sp.sstr(scaled)}, which changes with d_k (it is "
         f"{values[0].real:.4g} at d_k = {PROBES[0]} and {values[-1].real:.4g} at d_k = {PROBES[-1]}). "
         f"Dividing the scores by √d_k is meant to give the same variance for every d_k."
         + (f" {found[0].hint}" if len(found) == 1 else ""))


# q_i, k_i independent, mean 0, variance 1: simulations any student can run. The mean of q_i k_i
# has standard error 1/√n, its variance (E[(q_i k_i)^4] = 9) about √(8/n), and the variance of
# q·k over d_k terms about √((2 d_k² + 6 d_k) / n) (saturation.py derives the same).
DRAWS, SIM_Z, SIM_DK = 100_000, 6.0, (4, 9)


@lru_cache(maxsize=1)
def _simulated():
    """(function, what is compared, at which d_k or None, estimate, standard error), seeded."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.standard_normal(DRAWS) * rng.standard_normal(DRAWS)
    rows = [("product_mean", "q_i k_i", "mean", None, float(x.mean()), 1 / DRAWS ** 0.5),
            ("product_variance", "q_i k_i", "variance", None, float(x.var()), (8 / DRAWS) ** 0.5)]
    for n in SIM_DK:
        dots = np.einsum("ij,ij->i", rng.standard_normal((DRAWS, n)), rng.standard_normal((DRAWS, n)))
        rows.append(("dot_variance", "q·k", "variance", n, float(dots.var()), ((2 * n * n + 6 * n) / DRAWS) ** 0.5))
    return tuple(rows)


@check("product_mean, product_variance and dot_variance agree with simulations", 0.5,
       uses=("product_mean", "product_variance", "dot_variance"))
def agrees_with_simulation(sub, ref):
    for func, of, what, n, estimate, error in _simulated():
        expr = _expr(sub, func)
        values = _values(func, expr) if n is None else [_at(expr, n)]
        for at, z in zip(PROBES if n is None else (n,), values):
            if z is None or abs(z - estimate) > SIM_Z * error:
                where = f" at d_k = {at}" if n is not None or d_k() in expr.free_symbols else ""
                size = "" if n is None else f", d_k = {n}"
                got = "" if z is not None and not expr.free_symbols else \
                    f", which is {'no finite value' if z is None else f'{z.real:.6g}'}{where}"
                fail(f"{func}(): you gave {sp.sstr(expr)}{got}. {DRAWS:,} draws of {of}, "
                     f"with q_i and k_i independent, of mean 0 and variance 1{size} "
                     f"(np.random.default_rng(0)), have a {what} of {estimate:.4f}, with a standard error of "
                     f"{error:.4f}" + ("." if z is None else f"; {z.real:.6g} is "
                                       f"{abs(z - estimate) / error:.0f} standard errors from it."))
