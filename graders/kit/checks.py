"""The vocabulary grader files are written in.

A grader (graders/<slug>.py) is a module of functions decorated with
``@check``. Each check gets ``sub`` (the student's file, running in a worker;
``sub.call(name, *args)`` returns plain validated data) and ``ref`` (the
reference solution module, imported in the trusted parent; ``None`` where the
solutions are not shipped, which only hidden checks need). A check passes by
returning; it fails through ``expect`` or ``fail`` (``Catalogue.expect`` and
``Catalogue.fail``, catalogue.py, where a known mistake may be the cause), or the ``expect_*``
helpers below and ``expect_raises`` in raises.py, with a message that speaks to
the student and never states the answer. They raise ``Fail``; graders never do.
``Fail`` with ``fraction=1.0`` is a pass with a message (advice, raises.py's ``advise``).

Helpers take the expected value first, then the student's (PrairieLearn's
order), and name the variable in their messages.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..sandbox.errors import Raised, StudentError  # noqa: F401 - what a student's call can raise
from ..sandbox.wire import NOT_REPORTED, ChosenRng, NumpyScalar, Rejected, Rng, SympyText  # noqa: F401 - the wire
from .outcomes import Outcome
from .text import call_text, show  # noqa: F401 - part of the graders' vocabulary

__all__ = ["check", "Fail", "expect", "fail", "reworded", "expect_tuple", "as_array", "as_bool_array",
           "expect_array_close", "expect_new_array", "same_answer", "advice", "aside", "array_aside", "submission_of",
           "ADVICE", "Raised", "StudentError", "NumpyScalar", "Rejected", "Rng", "ChosenRng", "SympyText", "call_text",
           "show"]


@dataclass(frozen=True)
class Spec:
    name: str
    points: float
    hidden: bool
    uses: tuple


def check(name: str, points: float = 1, *, hidden: bool = False, uses=()):
    """Mark a function ``fn(sub, ref)`` as a check worth ``points``: ``sub`` is the student's
    code (a ``Student``, student.py: it has ``call`` and ``call_full``), ``ref`` the reference
    solution's module (for hidden checks). ``uses`` names the student's functions it calls, so a
    missing one is reported plainly. Hidden checks compare with the reference solution and are
    not shipped to students."""

    def mark(fn):
        fn.spec = Spec(name, float(points), hidden, tuple(uses))
        return fn

    return mark


class Fail(Exception):
    """A check's verdict short of full marks: ``fraction`` of the points, and why."""

    def __init__(self, message: str, fraction: float = 0.0, outcome: Outcome = Outcome.FAILED):
        super().__init__(message)
        self.message, self.fraction, self.outcome = message, fraction, outcome


# ------------------------------------------------------------------ helpers
def expect(condition: bool, message: str, fraction: float = 0.0):
    """Fail with ``message`` (and ``fraction`` of the points) unless ``condition`` holds."""
    if not condition:
        raise Fail(message, fraction)


def fail(message: str, fraction: float = 0.0, outcome: Outcome = Outcome.FAILED):
    """Fail with ``message``: ``expect`` for a check whose own ``if`` found the fault. ``outcome``:
    "partial", or "undecided" when it is left for a person to check."""
    raise Fail(message, fraction, outcome)


@contextmanager
def reworded(before: str = "", after: str = ""):
    """A failure inside (a kit helper's, as_array's or expect_array_close's) comes out as ``before``, its
    message, then ``after``: in the words of the call that gave the value."""
    try:
        yield
    except Fail as exc:
        raise Fail(before + exc.message + after) from None


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


def expect_new_array(call: str, changed, names=(), earlier=None):
    """The result of ``call`` (made with ``call_full``; ``changed`` its second value) is an array of
    its own: no argument shares its memory (the argument itself, or a view of it, returned), and,
    where ``earlier`` = (the call before it, made with ``call_full`` too, and its answer), that
    answer was not overwritten by this call (one buffer returned again and again). ``names``: the
    arguments' names, by position."""
    for key in changed.shared:
        name = names[key] if isinstance(key, int) and key < len(names) else key
        raise Fail(f"{call} returned {name} itself (or a view of it), not a new array: writing into the "
                   f"result changes the caller's {name}. {NEW_ARRAY}")
    if earlier is not None and changed.earlier is not NOT_REPORTED and changed.earlier is not None:
        before_call, before = earlier
        if not same_answer(before, changed.earlier):
            raise Fail(f"{before_call} returned {show(before)}, but after the next call, {call}, that result "
                       f"held {show(changed.earlier)}: the second call wrote into the array the first returned. "
                       f"{NEW_ARRAY}")


def same_answer(a, b) -> bool:
    """Two answers of the student's code the same: tuples (or lists) item by item, arrays of one shape and
    dtype with equal entries (NaN equal to NaN), anything else by its text."""
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b) and all(
            same_answer(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=True)))
    return repr(a) == repr(b)


# ------------------------------------------------------------------ diagnoses
ADVICE: set = set()  # the text of every fixed cause or fix a check states on its own observation, for the tests


def advice(text: str) -> str:
    """``text``, a cause or a fix stated without a Catalogue's probes, registered for the tests. A
    check gives it only where its own observation confirms it (the result *was* infinite, the input
    *was* modified), and a mutant whose feedback carries it must declare it (tests/test_graders.py)."""
    ADVICE.add(text)
    return text


@contextmanager
def aside(sub):
    """Calls made in here gather evidence after a call failed: what that call printed is still
    what the feedback shows, not what these printed."""
    inner = submission_of(sub)
    printed = getattr(inner, "printed", None)
    try:
        yield
    finally:
        if printed is not None:
            inner.printed = printed


def array_aside(sub, func: str, *args, shape=None, **kwargs):
    """The student's ``func(*args, **kwargs)``, called ``aside`` to gather evidence for a failure
    already found, as a finite float array (of ``shape``); None when that call raises or gives
    anything else, since evidence that cannot be read confirms nothing."""
    try:
        with aside(sub):
            return as_array("", sub.call(func, *args, **kwargs), shape=shape)
    except (Fail, StudentError):
        return None


NEW_ARRAY = advice("Each call must return an array of its own: an expression such as x / c or np.exp(x - m) "
                   "makes one; returning the argument, or a buffer kept between calls, does not.")


def submission_of(sub):
    """The submission itself, inside the wrappers a check's ``sub`` may be (Replay, Budgeted)."""
    while hasattr(sub, "sub"):
        sub = sub.sub
    return sub
