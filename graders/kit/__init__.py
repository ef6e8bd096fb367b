"""What a grader is written with: the vocabulary of graders/<slug>.py.

A grader imports what it uses from here (``from .kit import check, expect, ...``; a hidden
grader ``from ..kit import ...``): ``__all__`` below is that vocabulary, and each module
below declares its own ``__all__``.

A check passes by returning. It fails through kit, never by raising ``Fail`` itself:
``expect(condition, message)``, or ``fail(message)`` where the check's own ``if`` found the fault;
``catalogue.expect(sub, ...)`` and ``catalogue.fail(sub, ...)`` instead wherever a known mistake may
be the cause (they add the hint of the mistake the probes identify); and the expect_* helpers
(expect_tuple, expect_array_close, as_array, expect_raises), whose message ``reworded(before, after)``
(or ``catalogue.reworded``) puts in the words of the call that gave the value.

    checks.py      @check, Fail, expect and fail, the expect_* helpers, and the names a check meets
                   (Raised, StudentError, Rng, ChosenRng, SympyText, call_text, show); advice, a
                   cause a check states on its own observation; aside and array_aside, for calls
                   that gather that evidence without replacing what the failing call printed
    catalogue.py   Mistake and Catalogue, which give a hint only where discriminating probes
                   confirm it (Catalogue.call adds it to what the student's code raised)
    raises.py      expect_raises: a required exception, from the student's raise or a library's,
                   read from what the worker reported (the grader decides, never the worker)
    props.py       for_all: a property checked with Hypothesis under fixed settings
    lazy.py        st and hnp: Hypothesis's strategies, imported only when drawn live
    strategies.py  named Hypothesis strategies: small shapes, bounded finite floats
    exact.py       comparing an exact SymPy answer with the reference, in bounded time
    equality.py    equal by numbers at probe points, then exactly, each within a time bound
    remember.py    settled verdicts on exact answers, kept across runs in a store the engine lends
    parse.py       the whitelisting parser that rebuilds exact answers from text
    outcomes.py    Outcome: a check's verdict, passed, failed, partial, undecided or error
    student.py     Student: what a check may do with the student's code (call, call_full), a Protocol
    domain.py      Domain: what each stub promises about its inputs, which every check stays inside
    numbers.py     the one rule for a returned number: what counts as a float, what as an int
    text.py        short renderings of calls, arrays and answers for feedback
    mode.py        whether for_all draws, records or replays (set by grading/plans.py)
    variants.py    each student their own numbers: a student's variant, the current one (set by
                   grading/engine.py), and the shipped digests of every variant's values
    models.py      models of known mistakes of attention, for the graders' hints, and the one
                   wording of np.exp's overflow (NO_SHIFT, overflow)

May import: kit/, bounded/ (exact answers are read there) and sandbox/ (for the errors, the
wire's value types and the installed versions), nothing else.
"""

from .catalogue import Catalogue, Mistake
from .checks import (ChosenRng, Fail, Raised, Rng, StudentError, SympyText, advice, array_aside, as_array, aside,
                     as_bool_array, call_text, check, expect, expect_array_close, expect_new_array, expect_tuple, fail,
                     reworded, same_answer, show)
from .exact import TimeUp, compare, float_born, time_limit, to_expr
from .lazy import hnp, module, st
from .outcomes import Outcome
from .domain import SCORE_LIMIT, Domain, entries_within, scores_within
from .numbers import as_float, as_int, is_float, is_int, real
from .models import EXP_RANGE, NO_SHIFT, attend, heads, overflow, overflow_raised, weights
from .props import for_all
from .raises import advise, expect_raises
from .strategies import (array_and_axis, arrays_any_rank, causal_cases, cross_cases, floats, future_change,
                         masked_case, mha_cases, permutations, permuted_case, qkv)
from .student import Student
from .variants import VARIANT_COUNT, VariantDigests, current_variant, other_numbers, pick_variant

__all__ = [
    # a check, and how it passes or fails
    "check", "expect", "fail", "reworded", "expect_tuple", "expect_array_close", "expect_new_array", "same_answer",
    "as_array", "as_bool_array", "Fail", "Outcome",
    # naming a mistake on evidence
    "Mistake", "Catalogue", "advice", "aside", "array_aside", "attend", "heads", "weights",
    # the one wording of the overflow of np.exp: a hint's, and advice's
    "NO_SHIFT", "EXP_RANGE", "overflow", "overflow_raised",
    # what each stub promises about its inputs (domain.py)
    "Domain", "SCORE_LIMIT", "scores_within", "entries_within",
    # the one rule for a returned number (numbers.py)
    "as_float", "as_int", "is_float", "is_int", "real",
    # what a student's call gives back or raises, and how feedback shows it
    "Student", "StudentError", "Raised", "Rng", "ChosenRng", "SympyText", "call_text", "show",
    # required exceptions
    "expect_raises", "advise",
    # properties, and the strategies that draw their inputs
    "for_all", "st", "hnp", "floats", "arrays_any_rank", "array_and_axis", "qkv", "masked_case", "future_change",
    "permuted_case", "permutations", "mha_cases", "causal_cases", "cross_cases",
    # exact answers
    "compare", "to_expr", "time_limit", "TimeUp", "module", "float_born",
    # each student their own numbers (variants.py)
    "current_variant", "pick_variant", "VariantDigests", "VARIANT_COUNT", "other_numbers",
]
