"""Property checks driven by Hypothesis, with reproducible settings.

``for_all(strategy, body)`` draws inputs in the parent, lets ``body`` call the
student's function through the worker, and on failure reports the shrunk,
minimal counterexample: the input, what came back and which property broke.
Settings are fixed so a grade never depends on the machine or the run:
derandomized, no example database, no deadline, a fixed number of examples.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings

import copy

from ..sandbox.errors import Crashed, Missing, Raised, Timeout
from .checks import Fail
from .mode import NeedLive, current_mode

def _no_local_constants():
    """Hypothesis mixes numbers found in the source of every "local" module loaded in this
    process into the examples it draws, so the examples (and a grade) would depend on which
    of our modules happen to be imported, and on where the project is installed. Grades
    must not, so that pool is kept empty. (Hypothesis's own constants stay: they are fixed
    for a given version, which pyproject.toml pins.)"""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # a Hypothesis without the feature: nothing to do
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty


_no_local_constants()

GRADING = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    print_blob=False,
    verbosity=Verbosity.quiet,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=list(HealthCheck),
    report_multiple_bugs=False,
)


class _Stop(Exception):
    """An error after which calling the student again is pointless."""


class _Enough(BaseException):
    """Ends shrinking early (Hypothesis neither catches nor shrinks a BaseException)."""


def for_all(strategy, body, *, max_examples: int = 40, examples=(), shrink_calls: int = 40):
    """Check ``body(x)`` for inputs ``x`` drawn from ``strategy``.

    ``body`` raises Fail with a message about what came back (it may include
    the call it made). Pinned ``examples`` run first. The message of the final
    Fail shows the smallest failing input Hypothesis found within
    ``shrink_calls`` further calls after the first failure (shrinking several
    arrays can otherwise take tens of seconds); counting calls, not seconds,
    keeps the result the same on every machine.
    """
    mode = current_mode()
    site = (body.__code__.co_filename, body.__code__.co_firstlineno)
    recorded = mode.site_examples(site) if mode else None
    last = {"after": 0}

    def test(x):
        if recorded is not None and mode.recording:
            recorded.append(copy.deepcopy(x))
        if "stop" in last:  # after a hang or a crash, do not run student code again
            raise _Stop
        if "fail" in last:
            last["after"] += 1
            if last["after"] > shrink_calls:
                raise _Enough
        try:
            body(x)
        except Fail as exc:
            last["fail"] = exc
            raise
        except (Timeout, Crashed, Missing) as exc:  # pointless to go on
            last["fail"] = Fail(str(exc))
            last["stop"] = True
            raise _Stop from None
        except Raised as exc:
            if not exc.not_written:
                last["fail"] = Fail(str(exc))
                raise
            last["fail"] = Fail(str(exc))
            last["stop"] = True
            raise _Stop from None

    if recorded is not None and not mode.recording:
        for x in recorded:  # replay: the inputs a passing run draws, without Hypothesis
            try:
                test(copy.deepcopy(x))
            except Exception:  # noqa: BLE001 - a live run will find and shrink the failure
                raise NeedLive from None
        return
    for ex in reversed(list(examples)):
        test = example(ex)(test)
    run = settings(GRADING, max_examples=max_examples)(given(strategy)(test))
    try:
        run()
    except _Enough:
        exc = last["fail"]
        raise Fail(exc.message, exc.fraction, exc.outcome) from None
    except Exception:  # Fail, _Stop, or Hypothesis's report of a flaky failure
        if "fail" not in last:
            raise  # not the student's doing: a bug in the grader
        exc = last["fail"]
        raise Fail(exc.message, exc.fraction, exc.outcome) from None
