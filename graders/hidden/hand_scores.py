"""Hidden checks for hand_scores: each value exactly, and never shipped.

The expected values are worked out here, exactly, from the numbers of the variant being
graded (``numbers()``: the seed's are the reference solution's, tests/test_variants.py
holds it), so that a student with a variant is graded on their own numbers."""

from functools import lru_cache

from ..kit import Mistake, Outcome, check, compare, current_variant, fail, float_born, module, other_numbers, to_expr
from ..hand_scores import (DOUBLED, FUNCS, LETTER, NOT_DIVIDED, NO_EXP, NO_VALUES, SCORE_MISTAKES, SUB,
                           UNSCALED_WEIGHTS, answer_pair, close_to, exact_softmax, from_float_text, numbers, pair_hint,
                           score_mistakes, variants_with)

sp = module("sympy")  # imported at first use (kit/lazy.py)

SWAPPED_SCORES = Mistake("s₁ and s₂ are swapped (s_j belongs to key k_j)", None)
SWAPPED_WEIGHTS = Mistake("a₁ and a₂ are swapped (a_j is the weight of key k_j)", None)
SWAPPED_OUTPUT = Mistake("y₁ and y₂ are swapped (check the order of the weights, and that y₁ is the first "
                         "coordinate)", None)
FIRST = Mistake("a₁ was used for both coordinates; each coordinate of y mixes that coordinate of v₁ and v₂", None)
SECOND = Mistake("a₂ was used for both coordinates; each coordinate of y mixes that coordinate of v₁ and v₂", None)


class Exact:
    """The exact answers for the current variant's numbers, as the reference works them out."""

    def __init__(self, n):
        self.n = n
        self.s = tuple(sp.Integer(d) / sp.sqrt(2) for d in n.dots)
        self.a = exact_softmax(self.s)
        self.y = tuple(m * a for m, a in zip(n.scales, self.a))

    def scaled_scores(self):
        return self.s

    def attention_weights(self):
        return self.a

    def attention_output(self):
        return self.y


def expected() -> Exact:
    """The exact answers on the numbers being graded, worked out once per numbers and process."""
    return _exact(numbers())


@lru_cache(maxsize=None)
def _exact(n) -> Exact:
    return Exact(n)


def _fits_elsewhere(sub) -> list:
    """The variants other than the student's (0: the exercise's text) for whose numbers all six of the
    student's values are right; [] without a variant, or when a value cannot be read. Only all six
    count: a pair alone often fits another variant by chance (a swap, a factor of two). And none when
    every pair is right or a known mistake on the student's own numbers: keys written in the wrong
    order can give another variant's whole answer, and the student's own numbers explain it."""
    if current_variant() == 0:
        return []
    fits, pairs = None, {}
    for func in FUNCS:
        try:
            exprs = [to_expr(v, {})[0] for v in answer_pair(sub, func)]
        except Exception:  # noqa: BLE001 - a pair that cannot be read fits nothing (its own check says why)
            return []
        if not all(e is not None and e.is_number for e in exprs):
            return []
        pairs[func] = exprs
        here = set(variants_with(func, 0, exprs[0])) & set(variants_with(func, 1, exprs[1]))
        fits = here if fits is None else fits & here
    others = sorted(fits - {current_variant()})
    return [] if others and _explained_here(pairs) else others


def _explained_here(pairs: dict) -> bool:
    """Whether each pair (func -> the student's two values) is right, or one of its known mistakes,
    on the student's own numbers."""
    ref = expected()
    for func, exprs in pairs.items():
        candidates = ((None, getattr(ref, func)()),) + MISTAKES[func](ref, ANY)
        if not any(all(close_to(e, w) for e, w in zip(exprs, wanted)) for _, wanted in candidates):
            return False
    return True


def _exact_value(sub, func, index, mistakes):
    """Hidden: value ``index`` of ``func`` must equal the exact answer for the student's numbers.
    A wrong value is explained, if at all, by the student's whole answer being right for other numbers,
    else by a known mistake on their own numbers (``mistakes``)."""
    values = answer_pair(sub, func)
    ref = expected()  # the exact answers on the student's numbers: the reference module answers only the seed's
    expected_value = getattr(ref, func)()[index]
    name = f"{LETTER[func]}{SUB[index]} = {func}()[{index}]"
    verdict = compare(sp.sympify(expected_value), values[index])
    if verdict.fraction >= 1:
        return
    hint, why = "", ""
    if verdict.outcome == Outcome.FAILED:
        exprs = [to_expr(v, {})[0] for v in values]
        if all(e is not None and e.is_number for e in exprs):
            hint = other_numbers(_fits_elsewhere(sub)) or pair_hint(exprs, mistakes(ref, _own_scores(sub)))
            if not hint and float_born(exprs[index]) and close_to(exprs[index], expected_value):
                why = f" ({from_float_text(exprs[index], shown=False)})"
    fail(f"{name}: {verdict.message}{why}." + hint, verdict.fraction, verdict.outcome)


ANY = object()  # in place of the student's scores: every known mistake, whatever their scaled_scores() return


def _own_scores(sub):
    """The student's own scaled_scores() as two SymPy numbers, or None when they cannot be read: a hint that
    blames the scaling of the scores must agree with them."""
    try:
        exprs = [to_expr(v, {})[0] for v in answer_pair(sub, "scaled_scores")]
    except Exception:  # noqa: BLE001 - scores that cannot be read confirm nothing (their own check says why)
        return None
    return tuple(exprs) if all(e is not None and e.is_number for e in exprs) else None


def _same_pair(a, b) -> bool:
    return a is not None and all(close_to(x, y) for x, y in zip(a, b))


def _score_mistakes(ref, scores=ANY):
    s = ref.scaled_scores()
    return score_mistakes(ref.n.dots) + ((SWAPPED_SCORES, (s[1], s[0])),)


# The weights of a scaling mistake, named only where the student's own scaled_scores() make that same mistake:
# weights that happen to equal them after right scores come from a slip in the weights (a tanh form without
# its half gives the softmax of 2·s_j, which is that of q·k_j multiplied by √d_k when d_k = 2).
SCALED_WRONG = {m.says: Mistake(f"your weights are the softmax of scores where {m.says}", None) for m in SCORE_MISTAKES}


def _weight_mistakes(ref, scores=ANY):
    s, a = ref.scaled_scores(), ref.attention_weights()
    found = []
    for m, wrong in score_mistakes(ref.n.dots):
        if scores is ANY or _same_pair(scores, wrong):
            found.append((SCALED_WRONG[m.says], exact_softmax(wrong)))
    if scores is ANY or _same_pair(scores, s):  # right scores: the weights of the raw dot products, or doubled ones
        found += [(UNSCALED_WEIGHTS, exact_softmax(tuple(sp.Integer(d) for d in ref.n.dots))),
                  (DOUBLED, exact_softmax(tuple(2 * x for x in s)))]
    return tuple(found) + (
        (SWAPPED_WEIGHTS, (a[1], a[0])),
        (NOT_DIVIDED, tuple(sp.exp(x) for x in s)),
        (NO_EXP, tuple(x / sum(s) for x in s) if sum(s) != 0 else (sp.nan, sp.nan)),
    )


def _output_mistakes(ref, scores=ANY):
    a, (m1, m2) = ref.attention_weights(), ref.n.scales
    return (
        (SWAPPED_OUTPUT, (m2 * a[1], m1 * a[0])), (FIRST, (m1 * a[0], m2 * a[0])), (SECOND, (m1 * a[1], m2 * a[1])),
        (NO_VALUES, (a[0], a[1])),
    ) + tuple((m, (m1 * w[0], m2 * w[1])) for m, w in _weight_mistakes(ref, scores))


MISTAKES = {"scaled_scores": _score_mistakes, "attention_weights": _weight_mistakes,
            "attention_output": _output_mistakes}


@check("s₁ is exact and right", 0.5, hidden=True, uses=("scaled_scores",))
def score_1(sub, ref):
    _exact_value(sub, "scaled_scores", 0, _score_mistakes)


@check("s₂ is exact and right", 0.5, hidden=True, uses=("scaled_scores",))
def score_2(sub, ref):
    _exact_value(sub, "scaled_scores", 1, _score_mistakes)


@check("a₁ is exact and right", 1, hidden=True, uses=("attention_weights",))
def weight_1(sub, ref):
    _exact_value(sub, "attention_weights", 0, _weight_mistakes)


@check("a₂ is exact and right", 1, hidden=True, uses=("attention_weights",))
def weight_2(sub, ref):
    _exact_value(sub, "attention_weights", 1, _weight_mistakes)


@check("y₁ is exact and right", 1, hidden=True, uses=("attention_output",))
def output_1(sub, ref):
    _exact_value(sub, "attention_output", 0, _output_mistakes)


@check("y₂ is exact and right", 1, hidden=True, uses=("attention_output",))
def output_2(sub, ref):
    _exact_value(sub, "attention_output", 1, _output_mistakes)
