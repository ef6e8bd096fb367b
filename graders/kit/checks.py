"""The vocabulary grader files are written in.

A grader (graders/<slug>.py) is a module of functions decorated with
``@check``. Each check gets ``sub`` (the student's file, running in a worker;
``sub.call(name, *args)`` returns plain validated data) and ``ref`` (the
reference solution module, imported in the trusted parent; ``None`` where the
solutions are not shipped, which only hidden checks need). A check passes by
returning; it fails through ``expect`` or ``fail`` (``Catalogue.expect`` and
``Catalogue.fail`` where a known mistake may be the cause), or the ``expect_*``
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
from ..sandbox.wire import ChosenRng, NumpyScalar, Rejected, Rng, SympyText  # noqa: F401 - what crosses the wire
from .outcomes import Outcome
from .text import call_text, show  # noqa: F401 - part of the graders' vocabulary

__all__ = ["check", "Fail", "expect", "fail", "reworded", "expect_tuple", "as_array", "as_bool_array",
           "expect_array_close", "advice", "Mistake", "Catalogue", "aside", "array_aside", "submission_of", "HINTS",
           "ADVICE", "Raised", "StudentError", "NumpyScalar", "Rejected", "Rng", "ChosenRng", "SympyText", "call_text",
           "show"]


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


# ------------------------------------------------------------------ diagnoses
HINTS: set = set()  # the text of every hint a grader can give ("It looks like ..."), for the tests
ADVICE: set = set()  # the text of every fixed cause or fix a check states on its own observation, for the tests


def advice(text: str) -> str:
    """``text``, a cause or a fix stated without a Catalogue's probes, registered for the tests. A
    check gives it only where its own observation confirms it (the result *was* infinite, the input
    *was* modified), and a mutant whose feedback carries it must declare it (tests/test_graders.py)."""
    ADVICE.add(text)
    return text


@dataclass(frozen=True)
class Mistake:
    """A known mistake: ``says`` completes "It looks like ...", and ``model(*args, **kwargs)``
    gives the answer that mistake produces (in the form ``Catalogue.read`` gives the student's)."""

    says: str
    model: object

    def __post_init__(self):
        HINTS.add(self.hint)

    @property
    def hint(self) -> str:
        return f"It looks like {self.says}."


@dataclass(frozen=True)
class Catalogue:
    """Known mistakes of one function and the probes that tell them apart.

    A hint is given only when the student's function agrees with one mistake's model on
    every probe: inputs chosen to discriminate (d_v != 1, N_q != N_k, several rows, a
    mask that is not symmetric), never just the counterexample a check happened to find,
    on which several mistakes can coincide. The tests check that the probes tell every
    two models apart, and each model from the reference solution.
    """

    func: str
    probes: tuple  # (args, kwargs) pairs
    mistakes: tuple  # Mistake, ...
    read: object = None  # the student's answer -> comparable form; raises Fail when unreadable
    rtol: float = 1e-6
    atol: float = 1e-9

    def call(self, sub, *args, **kwargs):
        """The student's answer; an exception it raises comes with the hint of the mistake the probes
        identify (a sum without keepdims=True fails to broadcast on some shapes, not on others)."""
        try:
            return sub.call(self.func, *args, **kwargs)
        except Raised as exc:
            if exc.not_written:
                raise
            hint = self.hint(sub)
            raise Fail(str(exc) + (f"\n{hint.strip()}" if hint else "")) from None

    def answer(self, sub, args, kwargs):
        out = sub.call(self.func, *args, **kwargs)
        return self.read(out) if self.read else out

    def identify(self, sub):
        """The one mistake whose model the student's function follows on every probe, or None.
        Where the model cannot give an answer (a shape it cannot handle), the student's function
        must raise too; it must answer at least one probe."""
        answers = []
        for args, kwargs in self.probes:
            try:
                answers.append(self.answer(sub, args, kwargs))
            except Raised:
                answers.append(_RAISED)
            except (Fail, StudentError):
                return None
        if all(a is _RAISED for a in answers):
            return None
        found = [m for m in self.mistakes if all(self.follows(got, _model(m, a, k))
                                                 for got, (a, k) in zip(answers, self.probes))]
        return found[0] if len(found) == 1 else None

    def follows(self, got, modelled) -> bool:
        if got is _RAISED or modelled is None:
            return got is _RAISED and modelled is None
        return self.same(got, modelled)

    def hint(self, sub) -> str:
        """" It looks like ..." for the mistake the probes identify, else "". Worked out once per
        submission (a check that fails is shrunk, and several checks fail for one mistake)."""
        base = getattr(sub, "sub", sub)  # a replayed check's sub wraps the submission
        known = base.__dict__.setdefault("_identified", {})
        if id(self) not in known:
            with aside(sub):
                known[id(self)] = self.identify(sub)
        found = known[id(self)]
        return f" {found.hint}" if found else ""

    def fail(self, sub, message: str, advice: str = "", *, fraction: float = 0.0):
        """Fail with ``message`` and the hint of the mistake the probes identify; without one, with
        ``advice`` (registered with ``advice()``), which only the check's own observation may justify
        (the result *was* infinite), never the check's title alone. The hint and the advice are never
        both given. The way a check of this function fails, wherever a known mistake may be the cause."""
        raise Fail(message + (self.hint(sub) or (f" {advice}" if advice else "")), fraction) from None

    def expect(self, sub, condition: bool, message: str, advice: str = ""):
        """``expect``, with the hint (or ``advice``) of ``fail`` when ``condition`` does not hold."""
        if not condition:
            self.fail(sub, message, advice)

    @contextmanager
    def reworded(self, sub, before: str = "", after: str = ""):
        """``reworded``, with the hint of ``fail``: a failure inside comes out as ``before``, its message,
        ``after`` and the hint of the mistake the probes identify."""
        try:
            yield
        except Fail as exc:
            self.fail(sub, before + exc.message + after)

    def same(self, a, b) -> bool:
        """Equal answers: equal structure, and numbers equal within the tolerances."""
        if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
            return (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b)
                    and all(self.same(x, y) for x, y in zip(a, b)))
        if a is None or b is None:
            return a is b
        try:
            x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        except (TypeError, ValueError):
            return a == b
        if x.shape != y.shape:
            return False
        with np.errstate(all="ignore"):
            return bool(np.allclose(x, y, rtol=self.rtol, atol=self.atol, equal_nan=True))


_RAISED = object()  # the student's function raised on a probe


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


def submission_of(sub):
    """The submission itself, inside the wrappers a check's ``sub`` may be (Replay, Budgeted)."""
    while hasattr(sub, "sub"):
        sub = sub.sub
    return sub


def _model(mistake, args, kwargs):
    """A mistake's answer to a probe, or None where the mistake cannot give one."""
    try:
        with np.errstate(all="ignore"):
            return mistake.model(*args, **kwargs)
    except Exception:  # noqa: BLE001 - e.g. a shape that mistake cannot handle
        return None
