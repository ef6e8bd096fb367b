"""Property checks driven by Hypothesis, with reproducible settings.

``for_all(strategy, body)`` draws inputs in the parent, lets ``body`` call the
student's function through the worker, and on failure reports the shrunk,
minimal counterexample: the input, what came back and which property broke.
Settings are fixed so a grade never depends on the machine or the run:
derandomized, no example database, no deadline, a fixed number of examples.
"""

from __future__ import annotations

import copy

from ..sandbox.errors import Crashed, Missing, Raised, Timeout
from .checks import Fail
from .lazy import grading, ready, resolve
from .mode import NeedLive, current_mode

__all__ = ["for_all"]


def __getattr__(name):  # GRADING, the settings every property runs under, made on first use
    if name == "GRADING":
        return grading()
    raise AttributeError(name)


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
    hyp = ready()
    for ex in reversed(list(examples)):
        test = hyp.example(ex)(test)
    run = hyp.settings(grading(), max_examples=max_examples)(hyp.given(resolve(strategy))(test))
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
