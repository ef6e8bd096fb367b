"""Hidden checks for variance_proof: they compare with the reference solution and are never shipped."""

from ..kit import Mistake, Outcome, StudentError, check, compare, fail, module, to_expr
from ..variance_proof import d_k, same_at_probes, symbols

sp = module("sympy")  # imported at first use (kit/lazy.py)


def _exact(sub, ref, func, mistakes):
    """Hidden: ``func()`` must equal the reference exactly; name a matching known mistake.

    ``mistakes`` is a sequence of (message, wrong value), or a function giving
    one, called only once the answer is known to be wrong."""
    value = sub.call(func)
    verdict = compare(sp.sympify(getattr(ref, func)()), value, symbols=symbols())
    if verdict.fraction >= 1:
        return
    hint = ""
    if verdict.outcome == Outcome.FAILED:
        expr, _ = to_expr(value, symbols())
        if expr is not None:
            mistakes = mistakes() if callable(mistakes) else mistakes
            found = {m for m, wrong in mistakes if same_at_probes(expr, sp.sympify(wrong))}
            hint = f" {Mistake(found.pop(), None).hint}" if len(found) == 1 else ""
    fail(f"{func}(): {verdict.message}." + hint, verdict.fraction, verdict.outcome)


def own(sub, func):
    """The student's own ``func()`` as an expression, or None when it cannot be read: a hint about one result
    must agree with what the student's other functions return."""
    try:
        expr, _ = to_expr(sub.call(func), symbols())
    except StudentError:
        return None
    return expr


def _own_is(sub, func, value) -> bool:
    """Whether the student's own ``func()`` is ``value`` (at every probe d_k)."""
    expr = own(sub, func)
    return expr is not None and same_at_probes(expr, sp.sympify(value))


# A hint that each term q_i k_i has variance 2 is given only where the student's own product_variance() says 2:
# with a right Var(q_i k_i) = 1, a Var(q·k) of 2·d_k comes from elsewhere (2·d_k terms counted, or q_i k_i
# taken as q_i², whose variance is 2).
ADDED_EACH = "each term was given variance 2 (the variances of q_i and k_i added instead of multiplied)"
ADDED_SCALED = "the variances of q_i and k_i were added in each term instead of multiplied"


@check("E[q_i k_i] is exact and right", 0.75, hidden=True, uses=("product_mean",))
def product_mean_exact(sub, ref):
    _exact(sub, ref, "product_mean", (
        ("you used E[q_i²] (or a variance) instead of E[q_i] E[k_i], which independence allows", 1),
    ))


@check("Var(q_i k_i) is exact and right", 0.75, hidden=True, uses=("product_variance",))
def product_variance_exact(sub, ref):
    # a variance of 0 says "q_i k_i never varies" only beside a right mean: 1 − E[q_i k_i]² with the
    # student's own mean of 1 is 0 too, and then the formula is right and the mean is not
    _exact(sub, ref, "product_variance", lambda: (
        ("the variances of q_i and k_i were added; for a product of independent variables use "
         "Var(q_i k_i) = E[q_i² k_i²] − E[q_i k_i]² and E[q_i² k_i²] = E[q_i²] E[k_i²]", 2),
    ) + ((("q_i k_i never varies, which a variance of 0 would mean; use Var(X) = E[X²] − E[X]²", 0),)
         if _own_is(sub, "product_mean", 0) else ()))


@check("Var(q·k) is exact and right for every d_k", 1.5, hidden=True, uses=("dot_variance",))
def dot_variance_exact(sub, ref):
    def mistakes():
        return [
            ("d_k got squared: the variances of the d_k independent terms add up, they do not multiply", d_k()**2),
            ("you gave the standard deviation of q·k, not its variance", sp.sqrt(d_k())),
        ] + ([(ADDED_EACH, 2 * d_k())] if _own_is(sub, "product_variance", 2) else [])

    _exact(sub, ref, "dot_variance", mistakes)


@check("Var(q·k / √d_k) is exact and right", 1, hidden=True, uses=("scaled_dot_variance",))
def scaled_dot_variance_exact(sub, ref):
    def mistakes():
        try:  # compared with the student's own Var(q·k), so a wrong one is not blamed twice
            dot, _ = to_expr(sub.call("dot_variance"), symbols())
        except StudentError:
            dot = None
        own = [] if dot is None else [
            ("your scaling step Var(q·k) / (√d_k)² is right, so the problem is in dot_variance()", dot / d_k())]
        return own + [
            ("q·k was divided by d_k instead of √d_k", 1 / d_k()),
            ("the factor 1/√d_k was not squared: Var(cX) = c² Var(X)", sp.sqrt(d_k())),
            ("the division by √d_k was left out", sp.sympify(ref.dot_variance())),
        ] + ([(ADDED_SCALED, 2)] if _own_is(sub, "product_variance", 2) else [])

    _exact(sub, ref, "scaled_dot_variance", mistakes)
