"""Property checks driven by Hypothesis, with reproducible settings.

``for_all(strategy, body)`` draws inputs in the parent, lets ``body`` call the
student's function through the worker, and on failure reports the shrunk,
minimal counterexample: the input, what came back and which property broke.
Settings are fixed so a grade never depends on the machine or the run:
derandomized, no example database, no deadline, a fixed number of examples.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings

from graders.checks import Fail
from graders.sandbox import Crashed, Missing, Raised, Timeout

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


def for_all(strategy, body, *, max_examples: int = 40, examples=()):
    """Check ``body(x)`` for inputs ``x`` drawn from ``strategy``.

    ``body`` raises Fail with a message about what came back (it may include
    the call it made). Pinned ``examples`` run first. The message of the final
    Fail shows the smallest failing input Hypothesis found.
    """
    last = {}

    def test(x):
        if "stop" in last:  # after a hang or a crash, do not run student code again
            raise _Stop
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

    for ex in reversed(list(examples)):
        test = example(ex)(test)
    run = settings(GRADING, max_examples=max_examples)(given(strategy)(test))
    try:
        run()
    except Exception:  # Fail, _Stop, or Hypothesis's report of a flaky failure
        if "fail" not in last:
            raise  # not the student's doing: a bug in the grader
        exc = last["fail"]
        raise Fail(exc.message, exc.fraction, exc.outcome) from None
