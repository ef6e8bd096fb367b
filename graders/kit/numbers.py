"""One rule for the numbers a student returns, the same for every function of every exercise.

A *float* is any real number that is not a truth value: a Python float or int, or a NumPy scalar
of a float or integer type (np.float64, which is a Python float too, np.float32, np.int64). An
*int* is a Python int or a NumPy integer scalar. Neither is a bool, an array (not even one of a
single element), a list or a string. docs/contract.md states the same rule for students, and
every check that reads a returned number reads it here, so no function is stricter than another.

    as_float(name, value)   the number as a Python float, or a named failure
    as_int(name, value)     the number as a Python int, or a named failure
    real(value)             the number as a Python float, NaN for anything else (for a Catalogue's
                            read, where a value that is not a number confirms no mistake)
"""

from __future__ import annotations

import math

import numpy as np

from ..sandbox.wire import Rejected
from .checks import Fail, advice
from .text import show

__all__ = ["as_float", "as_int", "real", "is_float", "is_int", "WRAP"]

WRAP = advice("wrap the result in float(...)")


def is_int(value) -> bool:
    """A Python int or a NumPy integer scalar (the wire marks those as ints), never a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_float(value) -> bool:
    """A Python float or int, or a NumPy float or integer scalar; never a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def real(value) -> float:
    """``value`` as a float when the rule counts it as one (and a float can hold it), else NaN."""
    try:
        return float(value) if is_float(value) else math.nan
    except OverflowError:  # an int of 400 digits
        return math.nan


def _what(value) -> str:
    """What the student returned, in a few words, when it is not a number."""
    if isinstance(value, Rejected):
        return value.reason
    if isinstance(value, bool):
        return f"the truth value {value}"
    if isinstance(value, np.ndarray):
        kind = f"an array of shape {value.shape}" if value.ndim else "a 0-dimensional array"
        return f"{kind} ({show(value)})"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} ({show(value)})"
    return show(value)


def as_float(name: str, value, *, finite: bool = True) -> float:
    """``value`` as a Python float; fails naming what ``name`` returned when the rule does not
    count it as a float, and (``finite``) when it is NaN or infinite."""
    if not is_float(value):
        one = isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "biuf"
        raise Fail(f"{name} returned {_what(value)}, not a float" + (f": {WRAP}" if one else ""))
    try:
        number = float(value)
    except OverflowError:
        raise Fail(f"{name} returned an integer of {int(value).bit_length()} bits, too large for a float") from None
    if finite and not math.isfinite(number):
        raise Fail(f"{name} returned {number!r}; it should be a finite number")
    return number


def as_int(name: str, value) -> int:
    """``value`` as a Python int; fails naming what ``name`` returned when it is not an int."""
    if not is_int(value):
        raise Fail(f"{name} returned {_what(value)}, not an int")
    return int(value)
