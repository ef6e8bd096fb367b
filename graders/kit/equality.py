"""Whether an exact answer equals the reference: by numbers at probe points, then exactly,
each within a time bound (``time_limit``). Used by exact.py, in the process that compares."""

from __future__ import annotations

import math
import signal
import threading
from contextlib import contextmanager

from .lazy import load, module
from .remember import bound_met

sp = module("sympy")  # imported at first use (kit/lazy.py)


def numerically_equal(expected, actual, probes):
    """True/False when numbers settle it at every probe point, None if they cannot."""
    syms = expected.free_symbols | actual.free_symbols
    points = [{s: sp.Integer(p) for s in syms} for p in probes] if syms else [{}]
    for point in points:
        try:
            e = complex(expected.xreplace(point).evalf(30))
            a = complex(actual.xreplace(point).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, RecursionError):
            return None
        if not (math.isfinite(abs(e)) and math.isfinite(abs(a))):
            return None
        if abs(e - a) > 1e-9 * max(1.0, abs(e)):
            return False
    return True


def equal_within(expected, actual, seconds):
    """True, False or None (undecided) for exact equality, bounded in time."""
    with time_limit(seconds) as timed_out:
        try:
            diff = expected - actual
            # tanh, cosh and the like: as exponentials SymPy settles such an equality in a fraction of a second
            from sympy.functions.elementary.hyperbolic import HyperbolicFunction

            if diff.has(HyperbolicFunction) and sp.simplify(diff.rewrite(sp.exp)) == 0:
                return True
            diff = sp.simplify(diff)
            if diff == 0:
                return True
            result = expected.equals(actual)
        except TimeUp:
            return None
        except (TypeError, ValueError, RecursionError, ZeroDivisionError):
            return None
    if timed_out():
        return None
    return result


class TimeUp(Exception):
    """Raised inside a ``time_limit`` block when its time is up."""


@contextmanager
def time_limit(seconds):
    """Raise TimeUp inside the block after ``seconds``.

    The bound is SIGALRM, which only a process's main thread receives. In any other thread
    a student's answer such as 2**(d_k**1000) would be evaluated without a bound (as a Dask
    worker's thread once did, until it ran out of memory), so there this refuses, loudly:
    grade in the main thread of a process of its own (batch/remote.py's job process)."""
    fired = []
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError(f"kit.time_limit bounds time with SIGALRM, which only a main thread receives, and "
                           f"this is thread {threading.current_thread().name!r}: grade in a process's main thread")
    load(sp)  # SymPy's own import, if it is still to come, must not be what the alarm interrupts
    if not hasattr(signal, "setitimer"):  # no interval timer (Windows): unbounded, as SymPy itself is
        yield lambda: False
        return

    def on_alarm(signum, frame):
        fired.append(True)
        bound_met()
        raise TimeUp

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield lambda: bool(fired)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
