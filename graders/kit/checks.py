"""The vocabulary grader files are written in.

A grader (graders/<slug>.py) is a module of functions decorated with
``@check``. Each check gets ``sub`` (the student's file, running in a worker;
``sub.call(name, *args)`` returns plain validated data) and ``ref`` (the
reference solution module, imported in the trusted parent; ``None`` where the
solutions are not shipped, which only hidden checks need). A check passes by
returning; it fails by raising ``Fail`` (usually through the ``expect_*``
helpers below), with a message that speaks to the student and never states
the answer.

Helpers take the expected value first, then the student's (PrairieLearn's
order), and name the variable in their messages.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sandbox.errors import Raised, StudentError  # noqa: F401 - what a student's call can raise
from ..sandbox.wire import Rejected, Rng, SympyText  # noqa: F401 - what crosses the wire
from .text import call_text, show  # noqa: F401 - part of the graders' vocabulary


@dataclass(frozen=True)
class Spec:
    name: str
    points: float
    hidden: bool
    uses: tuple


def check(name: str, points: float = 1, *, hidden: bool = False, uses=()):
    """Mark a function as a check worth ``points``. ``uses`` names the student's
    functions it calls, so a missing one is reported plainly. Hidden checks
    compare with the reference solution and are not shipped to students."""

    def mark(fn):
        fn.spec = Spec(name, float(points), hidden, tuple(uses))
        return fn

    return mark


class Fail(Exception):
    """A check's verdict short of full marks: ``fraction`` of the points, and why."""

    def __init__(self, message: str, fraction: float = 0.0, outcome: str = "failed"):
        super().__init__(message)
        self.message, self.fraction, self.outcome = message, fraction, outcome


# ------------------------------------------------------------------ helpers
def expect(condition: bool, message: str, fraction: float = 0.0):
    if not condition:
        raise Fail(message, fraction)


def expect_exact(name: str, expected, actual, *, symbols=None):
    """``actual`` must equal the exact SymPy value ``expected`` (see exact.py)."""
    from .exact import compare  # SymPy is imported only by the exercises with exact answers

    verdict = compare(expected, actual, symbols=symbols)
    if verdict.fraction < 1.0:
        raise Fail(f"{name}: {verdict.message}", verdict.fraction, verdict.outcome)


def expect_tuple(name: str, length: int, actual) -> tuple:
    if not isinstance(actual, (tuple, list)) or len(actual) != length:
        raise Fail(f"{name} should return a tuple of {length} values; got {show(actual)}")
    return tuple(actual)


def as_array(name: str, value, *, shape=None, ndim=None, finite=True) -> np.ndarray:
    """Validate a student's array and return it as a plain float64 ndarray."""
    if isinstance(value, Rejected):
        raise Fail(f"{name} should be a float array; got {value.reason}")
    if isinstance(value, (list, tuple)) or not isinstance(value, np.ndarray):
        kind = "a list" if isinstance(value, list) else "a tuple" if isinstance(value, tuple) else show(value)
        raise Fail(f"{name} should be a numpy array; got {kind}")
    if value.dtype.kind not in "biuf":
        raise Fail(f"{name} should be a float array; got dtype {value.dtype}")
    arr = np.asarray(value, dtype=np.float64)
    if ndim is not None and arr.ndim != ndim:
        raise Fail(f"{name} should have {ndim} dimensions; got shape {arr.shape}")
    if shape is not None and arr.shape != tuple(shape):
        raise Fail(f"{name} should have shape {tuple(shape)}; got shape {arr.shape}")
    if finite and not np.all(np.isfinite(arr)):
        bad = "NaN" if np.isnan(arr).any() else "inf"
        raise Fail(f"{name} contains {bad}: {show(arr)}")
    return arr


def as_bool_array(name: str, value, *, shape) -> np.ndarray:
    if isinstance(value, Rejected):
        raise Fail(f"{name} should be a boolean array; got {value.reason}")
    if not isinstance(value, np.ndarray):
        raise Fail(f"{name} should be a numpy array of bool; got {show(value)}")
    if value.dtype != np.bool_:
        raise Fail(f"{name} should have dtype bool (True = may attend); got dtype {value.dtype}", 0.0)
    if value.shape != tuple(shape):
        raise Fail(f"{name} should have shape {tuple(shape)}; got {value.shape}")
    return value


def expect_close(name: str, expected: float, actual, *, atol: float, what: str = ""):
    """A number within ``atol`` of ``expected``; the message says how far off, not the target."""
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        raise Fail(f"{name} should be a number; got {show(actual)}")
    if not np.isfinite(actual):
        raise Fail(f"{name} is {actual!r}")
    if abs(actual - expected) > atol:
        side = "too large" if actual > expected else "too small"
        raise Fail(f"{name} is {show(float(actual))}, {side}{' ' + what if what else ''} "
                   f"(allowed error {atol:.3g})")


def expect_array_close(name: str, expected: np.ndarray, actual: np.ndarray, *, rtol=1e-7, atol=1e-9):
    """Arrays of equal shape agreeing within tolerances; names the worst entry, never the expected value
    nor how far off it is (with the student's own value, that would give the answer away)."""
    if expected.shape != actual.shape:
        raise Fail(f"{name} should have shape {expected.shape}; got {actual.shape}")
    err = np.abs(actual - expected) - rtol * np.abs(expected)
    if np.any(err > atol):
        idx = np.unravel_index(int(np.argmax(err)), err.shape)
        where = "[" + ", ".join(map(str, idx)) + "]"
        raise Fail(f"{name}{where} is {actual[idx]:.6g}, which is wrong (tolerance: relative {rtol:g}, "
                   f"absolute {atol:g})")


def diagnose(actual: np.ndarray, mistakes, *, rtol=1e-6, atol=1e-9) -> str:
    """Name a known mistake whose output ``actual`` matches, or return "".

    ``mistakes`` is a sequence of (message, function returning the wrong
    answer); a function that raises or gives another shape is skipped.
    """
    for message, wrong in mistakes:
        try:
            candidate = np.asarray(wrong(), dtype=np.float64)
        except Exception:
            continue
        if candidate.shape == actual.shape and np.allclose(actual, candidate, rtol=rtol, atol=atol):
            return message
    return ""
