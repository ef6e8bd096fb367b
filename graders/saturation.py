"""Grader for the saturation exercise: simulation results within sampling error.

The student's numbers are estimates, so value checks use tolerances derived
from the number of trials (n):

* dot_variances: q·k is a sum of d_k products q_i k_i (mean 0, variance 1,
  fourth moment 9), so Var(q·k) = d_k and E[(q·k)^4] = 3 d_k^2 + 6 d_k. The
  sample variance over n trials then has variance about
  (E[(q·k)^4] - d_k^2) / n = (2 d_k^2 + 6 d_k) / n. We allow
  VAR_Z = 5 standard errors around d_k; the scaled variance is the unscaled
  one divided by d_k, so its tolerance is the same divided by d_k.
* mean_top_weight: the top weight lies in [0, 1], so its standard deviation is
  at most 1/2 and the mean over n trials has standard error at most
  1/(2 sqrt(n)). We allow TOP_Z / (2 sqrt(n)) plus the precision of the figure
  compared with (the lesson's large-sample figures, FIGURES).

Randomness: the worker reseeds NumPy's global state from each call's own
arguments, so code that draws from np.random.* instead of the rng it is given
answers differently when the same call is written with keywords. The overflow check passes
a ChosenRng instead (graders/sandbox/chosen_rng.py): every normal draw is 3.2, so its scores are
beyond np.exp's range on every run, and its answer is exact.
"""

import math
from functools import lru_cache

import numpy as np

from .kit import (Catalogue, ChosenRng, Domain, EXP_RANGE, Mistake, Rng, StudentError, advice, as_float, call_text,
                  check, expect, expect_tuple, fail, overflow_raised, real, show)

# What the stub promises (kit/domain.py): any d_k, n_keys and trials of at least 1, and a generator to draw
# from; no check narrows it.
DOMAIN = Domain()

VAR_TRIALS, VAR_Z = 5000, 5.0  # tolerance at d_k = 256: 5 sqrt((2 d_k^2 + 6 d_k) / n) ~ 26
TOP_TRIALS, TOP_Z = 2000, 4.0
# (d_k, scaled) -> (figure, its precision), 10 keys: the lesson's large-sample figures (CURRICULUM.md).
FIGURES = {
    (16, False): (0.7275, 0.0005), (64, False): (0.8646, 0.0005), (256, False): (0.9326, 0.0005),
    (16, True): (0.318, 0.0025), (64, True): (0.3192, 0.0005), (256, True): (0.318, 0.0025),
}
# Causes and fixes a check states on its own observation (kit/checks.py, advice), never on its title alone.
GLOBAL_STATE = advice("draw every random number from the rng argument (rng.standard_normal); np.random.randn, "
                      "np.random.normal and friends use NumPy's global state (the random module its own), "
                      "which the seed does not control")
OWN_GENERATOR = advice("so its random numbers come from elsewhere: use the rng you are given, not a generator of "
                       "your own")
MEAN_WEIGHT = advice("that is the average weight (the weights of a softmax sum to 1). Take the largest weight of "
                     "each trial, then average those")
# kit's EXP_RANGE, with the fix as a sentence of its own: the check's message ends "..., and {OVERFLOW}"
OVERFLOW = advice(f"{EXP_RANGE}. Subtract each trial's largest score before np.exp (it does not change the softmax)")
SAME_RTOL = 2e-3  # the second value of dot_variances is the first / d_k, up to the rounding of two float16 at worst
BIG = 3.2  # every draw of the overflow check's rng: at d_k = 100 each score is 100 · 3.2² = 1024, beyond 709


@lru_cache(maxsize=None)
def divided_by_dk(d_k, n_keys):
    """Mean top weight when the scores are divided by d_k (a common mistake)."""
    rng = np.random.default_rng(2024)
    s = np.einsum("td,tkd->tk", rng.standard_normal((2000, d_k)), rng.standard_normal((2000, n_keys, d_k))) / d_k
    a = np.exp(s - s.max(axis=1, keepdims=True))
    return float((a / a.sum(axis=1, keepdims=True)).max(axis=1).mean())


@lru_cache(maxsize=None)
def over_trials(d_k, n_keys, trials, seed, scaled):
    """Mean top weight when each key's softmax runs over the trials axis (a common mistake): drawn as the
    reference draws, from np.random.default_rng(seed), so a function with this mistake gives about the same."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((trials, 1, d_k)), rng.standard_normal((trials, n_keys, d_k))
    s = (q @ k.transpose(0, 2, 1))[:, 0, :] / (math.sqrt(d_k) if scaled else 1.0)  # (trials, n_keys)
    a = np.exp(s - s.max(axis=0, keepdims=True))
    return float((a / a.sum(axis=0, keepdims=True)).max(axis=1).mean())


def _floats(out):
    return tuple(real(x) for x in expect_tuple("dot_variances", 2, out))


DOT = Catalogue("dot_variances", tuple(((d_k, VAR_TRIALS, Rng(seed)), {}) for seed, d_k in ((31, 16), (32, 64),
                                                                                            (33, 256))), (
    Mistake("the scaled scores are divided by d_k instead of √d_k", lambda d, n, rng: (d, 1 / d)),
    Mistake("the two values are swapped: unscaled first, then scaled", lambda d, n, rng: (1, d)),
    Mistake("these are standard deviations, not variances", lambda d, n, rng: (math.sqrt(d), 1)),
    Mistake("the variance is that of the single products q_i k_i, not of their sum q·k: it does not grow with d_k",
            lambda d, n, rng: (1, 1 / d)),
), read=_floats, rtol=0.15, atol=0.0)
TOP = Catalogue("mean_top_weight", tuple(((d_k, 10, TOP_TRIALS // (1 if d_k == 16 else 4), Rng(seed)),
                                          {"scaled": scaled}) for seed, d_k, scaled in
                                         ((41, 16, False), (42, 16, True), (45, 256, False), (46, 256, True))), (
    Mistake("the scaled flag is ignored: the scores are always divided by √d_k",
            lambda d, n, t, rng, scaled=True: FIGURES[d, True][0]),
    Mistake("the scaled flag is ignored: the scores are never divided by √d_k",
            lambda d, n, t, rng, scaled=True: FIGURES[d, False][0]),
    Mistake("the scaled flag is inverted: scaled=True should divide the scores by √d_k, scaled=False not",
            lambda d, n, t, rng, scaled=True: FIGURES[d, not scaled][0]),
    Mistake("the scores are divided by d_k instead of √d_k",
            lambda d, n, t, rng, scaled=True: divided_by_dk(d, n) if scaled else FIGURES[d, False][0]),
    Mistake("the softmax runs over the trials axis, not over the n_keys scores of each trial: the weights of one "
            "trial's keys should sum to 1 (axis=-1)",
            lambda d, n, t, rng, scaled=True: over_trials(d, n, t, rng.seed, scaled)),
), read=real, rtol=0.0, atol=0.03)


# ------------------------------------------------------------------ calling the student
def _answer(name, call, value):
    """What ``call`` returned, as the float (mean_top_weight) or the pair of floats (dot_variances) it
    should be, NaN and infinity kept: a check about the seed compares answers, not their values."""
    if name == "mean_top_weight":
        return as_float(call, value, finite=False)
    pair = expect_tuple(call, 2, value)
    return tuple(as_float(f"the {which} value of {call}", x, finite=False) for which, x in zip(("first", "second"),
                                                                                                 pair))


def variances_of(sub, d_k, trials, seed):
    call = call_text("dot_variances", d_k, trials, Rng(seed))
    pair = expect_tuple(call, 2, sub.call("dot_variances", d_k, trials, Rng(seed)))
    return call, as_float(f"the first value of {call}", pair[0]), as_float(f"the second value of {call}", pair[1])


def top_of(sub, d_k, n_keys, trials, seed, scaled=True, strict=True):
    call = call_text("mean_top_weight", d_k, n_keys, trials, Rng(seed), scaled=scaled)
    v = as_float(call, sub.call("mean_top_weight", d_k, n_keys, trials, Rng(seed), scaled=scaled))
    if strict and abs(v - 1 / n_keys) < 1e-12:  # random scores are never all equal, so this is the mean weight
        fail(f"{call} returned {show(v)}, exactly 1/n_keys: {MEAN_WEIGHT}")
    return call, v


def _same(a, b) -> bool:
    """The same answer, NaN included: a student's answer compared with another of its own (floats, tuples)."""
    return repr(a) == repr(b)


def var_tol(d_k, trials=VAR_TRIALS):
    """VAR_Z standard errors of the sample variance of q·k (see the module docstring)."""
    return VAR_Z * math.sqrt((2 * d_k ** 2 + 6 * d_k) / trials)


# ------------------------------------------------------------------ public checks
@check("returns floats in the right ranges", 0.5, uses=("dot_variances", "mean_top_weight"))
def returns_floats(sub, ref):
    call, a, b = variances_of(sub, 8, 1000, 0)
    expect(a > 0 and b > 0, f"{call} returned {show((a, b))}; a variance of random scores is positive")
    for scaled in (True, False):
        call, v = top_of(sub, 8, 5, 500, 0, scaled)
        expect(1 / 5 < v <= 1, f"{call} returned {show(v)}; the largest of 5 softmax weights lies between "
                               f"1/5 and 1, and so does its average")
    # With two keys the other one always keeps some weight (its score is never 40 below): below 1.
    call, v = top_of(sub, 8, 2, 500, 0)
    expect(1 / 2 < v < 1, f"{call} returned {show(v)}; the larger of 2 softmax weights lies between 1/2 and 1 "
                          f"(the other key always keeps some weight), and so does its average")


NAMES = {"dot_variances": ("d_k", "trials"), "mean_top_weight": ("d_k", "n_keys", "trials")}


@check("all randomness comes from rng, for any number of trials", 1, uses=("dot_variances", "mean_top_weight"))
def rng_discipline(sub, ref):
    varied = set()  # the functions whose result a different seed changed, with the trials tried so far
    for name, args in (("dot_variances", (16, 500)), ("dot_variances", (16, 2)), ("mean_top_weight", (16, 10, 300)),
                       ("mean_top_weight", (16, 10, 1)), ("mean_top_weight", (16, 10, 2))):
        named = dict(zip(NAMES[name], args), rng=Rng(7))
        same = call_text(name, *args, Rng(7))
        first = _answer(name, same, sub.call(name, *args, Rng(7)))
        again = _answer(name, call_text(name, **named), sub.call(name, **named))
        other = _answer(name, call_text(name, *args, Rng(8)), sub.call(name, *args, Rng(8)))
        if not _same(first, again):
            # the worker reseeds the global states from each call's text, so it answers the same call alike
            repeat = _answer(name, same, sub.call(name, *args, Rng(7)))
            why = f"; {GLOBAL_STATE}" if _same(repeat, first) else (
                f". Made again, {same} gave {show(repeat)}.")
            fail(f"{same} gave {show(first)}, but the same call written with keywords, "
                 f"{call_text(name, **named)}, gave {show(again)}: the same seed must give the same result{why}")
        mean_weight = isinstance(first, float) and abs(first - 1 / 10) < 1e-12  # other checks name it
        if not _same(first, other) or mean_weight:
            varied.add(name)
            continue
        if name in varied:
            # The seed mattered with more trials and the same seed gave the same result however written, so the
            # draws come from rng; that a result with fewer trials does not depend on them (a softmax over the
            # trials axis gives 1 for one trial) is not this check's property: others see the values.
            continue
        if not _same(more := _answer(name, call_text(name, *args[:-1], args[-1] + 1, Rng(7)),
                                       sub.call(name, *args[:-1], args[-1] + 1, Rng(7))), first):  # draws, not from rng
            why = f" Your result changes with the number of trials ({show(more)} with {args[-1] + 1}) but not with " \
                  f"the seed, {OWN_GENERATOR}."
        else:
            why = f" With {args[-1] + 1} trials it gave {show(more)} too."
        fail(f"{same} and {call_text(name, *args, Rng(8))} both gave {show(first)}: different seeds must "
             f"give different results.{why}")


@check("scaling lowers the variance and the top weight; scaled defaults to True", 1,
       uses=("dot_variances", "mean_top_weight"))
def scaling_lowers(sub, ref):
    call, a, b = variances_of(sub, 16, 2000, 3)
    if not a > b:
        DOT.fail(sub, f"{call} returned {show((a, b))}: the first value (unscaled q·k) should be larger than the "
                      f"second (q·k divided by sqrt(d_k)).")
    call_u, u = top_of(sub, 64, 10, 1000, 4, scaled=False)
    call_s, s = top_of(sub, 64, 10, 1000, 4, scaled=True)
    if u == s:
        TOP.fail(sub, f"{call_u} and {call_s} both returned {show(u)}, so the flag changes nothing.")
    if u < s:
        TOP.fail(sub, f"{call_u} returned {show(u)} but {call_s} returned {show(s)}: unscaled scores are larger, so "
                      f"their softmax is more peaked.")
    plain = call_text("mean_top_weight", 64, 10, 1000, Rng(4))
    v = as_float(plain, sub.call("mean_top_weight", 64, 10, 1000, Rng(4)))
    expect(v != u or v == s, f"{plain} returned {show(v)}, the same as {call_u}: scaled defaults to True "
                             f"(def mean_top_weight(d_k, n_keys, trials, rng, scaled=True))")


@check("each trial draws a fresh query and key", 0.5, uses=("dot_variances", "mean_top_weight"))
def fresh_draws(sub, ref):
    _fresh_variances(sub)
    # mean_top_weight at d_k = 1: the top weight of a trial has a standard deviation of about 0.165 (a
    # simulation of 400,000 trials), so over n trials the estimates of 8 seeds lie within 2 * 5 * 0.2 / √n
    # of each other; one query, or one set of keys, reused for every trial spreads them about 0.15 apart
    n = 8000
    est = {seed: top_of(sub, 1, 10, n, seed, scaled=False, strict=False)[1] for seed in range(60, 68)}
    lo, hi = min(est, key=est.get), max(est, key=est.get)
    expect(est[hi] - est[lo] <= 2 * 5 * 0.2 / math.sqrt(n),
           f"{call_text('mean_top_weight', 1, 10, n, Rng(lo), scaled=False)} gave {show(est[lo])} but "
           f"{call_text('mean_top_weight', 1, 10, n, Rng(hi), scaled=False)} gave {show(est[hi])}: over {n} "
           f"trials the estimate should vary far less between seeds (its standard error is below 0.2 / √trials, "
           f"with a fresh query and fresh keys in every trial)")


def _fresh_variances(sub):
    d_k, n = 16, 5000
    est = {seed: variances_of(sub, d_k, n, seed)[1] for seed in range(20, 26)}
    lo, hi = min(est, key=est.get), max(est, key=est.get)
    allowed = 2 * var_tol(d_k, n)  # two estimates each within VAR_Z standard errors
    expect(est[hi] - est[lo] <= allowed,
           f"{call_text('dot_variances', d_k, n, Rng(lo))} gave {show(est[lo])} but "
           f"{call_text('dot_variances', d_k, n, Rng(hi))} gave {show(est[hi])}: over {n} trials the estimate "
           f"should vary far less between seeds (sampling error about sqrt((2 d_k² + 6 d_k) / trials), with a fresh "
           f"query and a fresh key in every trial)")


@check("Var(q·k) is about d_k, and about 1 after dividing by √d_k", 0.5, uses=("dot_variances",))
def variances_follow_theory(sub, ref):
    for seed, d_k in ((21, 8), (22, 32)):
        call, a, b = variances_of(sub, d_k, 4000, seed)
        tol = var_tol(d_k, 4000)
        if not (abs(a - d_k) <= tol and abs(b - 1) <= tol / d_k):
            DOT.fail(sub, f"{call} returned {show((a, b))}: q·k is a sum of {d_k} independent products of variance 1, "
                          f"so its variance is about d_k = {d_k}, and about 1 after dividing q·k by √d_k (allowed "
                          f"sampling error {tol:.3g} and {tol / d_k:.3g}).")


@check("the second value of dot_variances is the variance of the same scores divided by √d_k", 0.5,
       uses=("dot_variances",))
def scaled_variance_of_the_same_scores(sub, ref):
    # Var(s / √d_k) = Var(s) / d_k for the same scores s, so only rounding separates the two values (SAME_RTOL
    # allows a NumPy scalar as coarse as float16); the variance of a second, separate sample of scores is off by
    # sampling error, a relative standard deviation of sqrt(2 (2 d_k² + 6 d_k) / trials) / d_k = 0.10 here: it stays
    # within the tolerance at one seed with a chance of about 0.016, at all three with one of about 4e-6
    # (1 / (trials - 1) more: one value with ddof=1, the other with ddof=0, is the same sample too)
    d_k, trials = 10, 500
    for seed in (6, 16, 26):
        call, a, b = variances_of(sub, d_k, trials, seed)
        expect(a > 0, f"{call} returned {show((a, b))}; the variance of {trials} random scores is positive")
        if abs(b - a / d_k) > (SAME_RTOL + 1 / (trials - 1)) * abs(a / d_k):
            break
    else:
        return
    DOT.fail(sub, f"{call} returned {show((a, b))}: the second value should be the sample variance of the same "
                  f"{trials} scores divided by √d_k, which is the first value divided by d_k = {d_k}, up to rounding "
                  f"({show(a / d_k)}); yours is {show(b / (a / d_k) if a else math.inf)} times that.")


@check("mean_top_weight takes scaled by position as well as by name", 0.5, uses=("mean_top_weight",))
def scaled_by_position(sub, ref):
    args, signature = (16, 10, 300), "mean_top_weight(d_k, n_keys, trials, rng, scaled=True)"
    by_position = call_text("mean_top_weight", *args, Rng(9), False)
    try:
        value = sub.call("mean_top_weight", *args, Rng(9), False)
    except StudentError as exc:
        if not (getattr(exc, "is_a", None) and exc.is_a("TypeError")) or exc.not_written:
            raise
        fail(f"{exc}\nThe stub's signature, {signature}, lets every argument be written by position or by name; "
             f"scaled is the fifth.")
    value = _answer("mean_top_weight", by_position, value)
    by_name = call_text("mean_top_weight", *args, Rng(9), scaled=False)
    named = _answer("mean_top_weight", by_name, sub.call("mean_top_weight", *args, Rng(9), scaled=False))
    if _same(value, named):
        return
    plain = [_answer("mean_top_weight", "mean_top_weight(...)", sub.call("mean_top_weight", *args, Rng(9), *flag,
                                                                          **named_flag))
             for flag, named_flag in (((True,), {}), ((), {"scaled": True}))]
    if not _same(*plain):  # the same call written two ways differs without the flag too: the rng check's concern
        return
    fail(f"{by_position} gave {show(value)}, but {by_name} gave {show(named)}: in {signature}, the fifth argument "
         f"is scaled, by position as by name")


@check("mean_top_weight at d_k = 64: about 0.86 unscaled and 0.32 scaled, as in the lesson", 1,
       uses=("mean_top_weight",))
def top_weight_as_in_the_lesson(sub, ref):
    for scaled, seed in ((False, 51), (True, 52)):
        call, v = top_of(sub, 64, 10, 1000, seed, scaled)
        figure, precision = FIGURES[64, scaled]
        tol = TOP_Z / (2 * math.sqrt(1000)) + precision
        if abs(v - figure) > tol:
            TOP.fail(sub, f"{call} returned {show(v)}; the lesson's large simulations give about {figure:.2f} "
                          f"{'with' if scaled else 'without'} scaling (allowed error {tol:.3g} for 1000 trials).")


@check("mean_top_weight stays finite, and right, unscaled when the scores are beyond np.exp's range", 0.5,
       uses=("mean_top_weight",))
def unscaled_large_dk_finite(sub, ref):
    # Every normal draw of this rng is BIG (chosen_rng.py), so q and both keys are the same vector and both scores are
    # d_k BIG² = 1024: an unshifted softmax overflows to inf / inf = nan every time, a shifted one gives 1/2.
    d_k, n_keys, trials, rng = 100, 2, 1, ChosenRng(BIG)
    assert trials * (1 + n_keys) * d_k <= ChosenRng.DRAWS  # every draw the function needs is a chosen one
    call = call_text("mean_top_weight", d_k, n_keys, trials, rng, scaled=False)
    with overflow_raised(OVERFLOW):  # math.exp's OverflowError is the same mistake as an np.exp at inf
        v = sub.call("mean_top_weight", d_k, n_keys, trials, rng, scaled=False)
    if isinstance(v, float) and not math.isfinite(v):
        fail(f"{call} returned {v!r}: every normal draw of this generator is {BIG}, so both unscaled scores are "
             f"{d_k} · {BIG}² = {d_k * BIG ** 2:.0f}, and {OVERFLOW}")
    v = as_float(call, v)
    expect(abs(v - 1 / n_keys) <= 1e-9,  # equal sums of equal products, up to rounding
           f"{call} returned {show(v)}; every normal draw of this generator is {BIG}, so the query and both keys "
           f"are the same vector, the two scores are equal, and each of the 2 softmax weights is 1/2")
