"""Parent-side decoding of the worker's answers into plain, validated values.

The worker (inside/worker.py) sends JSON with a few tagged forms. Here every
answer becomes one of: None, bool, int, float, str, tuple, list, a plain
``numpy.ndarray`` with a numeric dtype, a :class:`SympyText` (the srepr text of
a SymPy object, parsed later by the whitelisting parser in graders/kit/parse.py),
or a :class:`Rejected` that says why the value cannot be graded. Nothing here
evaluates student text. ``changed`` decides, against the parent's own copies,
which array arguments a call changed (the worker only reports them as they were
after it).
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass

import numpy as np

from .chosen_rng import ChosenRng, state_for

MAX_ELEMENTS = 2_000_000
MAX_STR = 20_000  # characters of one string in an answer (the worker's own bound)
MAX_TEXT = 1_000_000  # characters of all the strings of one answer
MESSAGE = 2_000  # characters kept of a worker's message (an exception's text)
NAME = 200  # characters kept of a name (a type, a class, a function)
WHERE = 500  # characters kept of a source line


def cut(value, limit: int) -> str:
    """A text from the worker, at most ``limit`` characters and a note; anything else becomes ""."""
    if not isinstance(value, str):
        return ""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value) - limit} more characters)"


@dataclass(frozen=True)
class SympyText:
    text: str
    cls: str


@dataclass(frozen=True)
class Rejected:
    """A value the grader will not compare, with the reason in words."""

    reason: str


class ProtocolError(Exception):
    """The worker sent something that is not a well-formed answer."""


def encode(x):
    """Parent -> worker: arrays as raw bytes, tuples tagged, rng as a seed, a ChosenRng as its
    MT19937 state (data: the worker only sets it, chosen_rng.py)."""
    if isinstance(x, np.ndarray):
        arr = _as_sent(x)
        return {"__nd__": {"dtype": arr.dtype.str, "shape": list(arr.shape),
                           "b64": base64.b64encode(arr.tobytes()).decode("ascii")}}
    if isinstance(x, Rng):
        return {"__rng__": x.seed}
    if isinstance(x, ChosenRng):
        return {"__mt19937__": state_for(x.value)}
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {k: encode(v) for k, v in x.items()}
    if isinstance(x, float) and not math.isfinite(x):
        return {"__float__": repr(float(x))}
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


def _as_sent(x: np.ndarray) -> np.ndarray:
    """An array as the worker receives it (contiguous, and at least 1-d)."""
    return np.ascontiguousarray(x)


@dataclass(frozen=True)
class Rng:
    """An argument that the worker turns into ``np.random.default_rng(seed)``."""

    seed: int

    def __repr__(self):
        return f"np.random.default_rng({self.seed})"


def decode(x):
    """Worker -> parent: validate shape and type of everything."""
    return _decode(x, 0, [MAX_TEXT])


def _decode(x, depth, text_left):
    if depth > 25:
        raise ProtocolError("answer nested too deeply")
    if isinstance(x, str):
        text_left[0] -= len(x)
        if text_left[0] < 0:
            raise ProtocolError(f"the answer holds more than {MAX_TEXT} characters of text")
        return x if len(x) <= MAX_STR else Rejected(f"a string of {len(x)} characters")
    if x is None or isinstance(x, (bool, int, float)):
        return x
    if isinstance(x, list):
        return [_decode(v, depth + 1, text_left) for v in x]
    if not isinstance(x, dict) or len(x) == 0:
        raise ProtocolError(f"unexpected value {type(x).__name__}")
    if "__tuple__" in x:
        items = x["__tuple__"]
        if not isinstance(items, list):
            raise ProtocolError("bad tuple")
        return tuple(_decode(v, depth + 1, text_left) for v in items)
    if "__nd__" in x:
        return _decode_array(x["__nd__"])
    if "__sympy__" in x:
        text, cls = x["__sympy__"], x.get("class", "")
        if not isinstance(text, str) or not isinstance(cls, str):
            raise ProtocolError("bad SymPy value")
        if len(text) > MAX_STR:
            return Rejected(f"a SymPy expression of {len(text)} characters")
        return SympyText(text, cut(cls, NAME))
    if "__float__" in x:
        text = x["__float__"]
        if text not in ("nan", "inf", "-inf"):
            raise ProtocolError("bad float")
        return float(text)
    if "__other__" in x:
        return Rejected(f"a value of type {cut(x['__other__'], NAME)}")
    raise ProtocolError("unknown tagged value")


def _decode_array(meta):
    if not isinstance(meta, dict):
        raise ProtocolError("bad array")
    cls, kind, dtype = (cut(meta.get(k, ""), NAME) for k in ("class", "kind", "dtype"))
    shape = meta.get("shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) and 0 <= n for n in shape) or len(shape) > 32:
        raise ProtocolError("bad array shape")
    size = int(np.prod(shape, dtype=np.float64)) if shape else 1
    shown = "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
    if size > MAX_ELEMENTS:
        return Rejected(f"an array of shape {shown} ({size} elements), far larger than asked")
    if kind == "O":
        return Rejected(f"an array of dtype object, shape {shown}; use numeric float arrays")
    if kind == "c":
        return Rejected(f"an array of complex numbers (dtype {dtype}); the answer is real")
    if kind in "USaV" or kind not in "biuf":
        return Rejected(f"an array of dtype {dtype!s} (not numbers)")
    if cls.startswith("numpy scalar "):
        cls = "numpy.ndarray"
        scalar = True
    else:
        scalar = False
    if cls != "numpy.ndarray":
        return Rejected(f"an instance of {cls[:120]}, a subclass of ndarray; return a plain numpy.ndarray")
    try:
        dt = np.dtype(dtype)
        raw = base64.b64decode(meta.get("b64", ""), validate=True)
    except (TypeError, ValueError, binascii.Error) as exc:
        raise ProtocolError(f"bad array data: {exc}") from None
    if dt.kind != kind or dt.kind not in "biuf" or len(raw) != size * dt.itemsize:
        raise ProtocolError("array data does not match its dtype and shape")
    try:  # a forged shape such as [0, 2**70] has no bytes but still cannot be built
        arr = np.frombuffer(raw, dtype=dt).reshape(shape).copy()
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise ProtocolError(f"bad array: {exc}") from None
    if scalar:
        return numpy_scalar(arr.item(), dt.name)
    return arr


class NumpyScalar:
    """A NumPy scalar as the parent sees it: a Python number that remembers its NumPy type
    (``dtype``), so a check can tell np.float32(0.5) from the Python float 0.5 the contract
    may promise. It compares, hashes, prints and computes as the number it holds."""

    dtype = ""


class NumpyFloat(NumpyScalar, float):
    pass


class NumpyInt(NumpyScalar, int):
    pass


def numpy_scalar(value, dtype: str):
    """``value`` (from ndarray.item()) marked as a NumPy scalar of ``dtype``; a bool stays a bool."""
    cls = NumpyFloat if type(value) is float else NumpyInt if type(value) is int else None
    if cls is None:
        return value
    marked = cls(value)
    marked.dtype = dtype
    return marked


NOT_REPORTED = object()  # Changed.earlier where the answer said nothing of an earlier value


class Changed(list):
    """The array arguments a call changed (positions, keyword names), as ``changed`` finds them, and
    what the answer shows of the memory its result holds: ``shared``, the arguments that changed only
    when the returned arrays were written to (the result is that argument, or a view of it); and
    ``earlier``, the value the previous such call returned, decoded as it was after this call
    (NOT_REPORTED when the answer did not carry it, None when there was none). The grader compares
    ``earlier`` with what that call answered: a result overwritten by the next call is state."""

    def __init__(self, keys=(), shared=(), earlier=NOT_REPORTED):
        super().__init__(keys)
        self.shared, self.earlier = list(shared), earlier


def changes(args, kwargs, msg) -> Changed:
    """What an answer (``msg``, a dict) says of memory, decided here against the parent's own copies."""
    keys = changed(args, kwargs, msg.get("after"))
    poked = msg.get("poked")
    shared = [k for k in changed(args, kwargs, poked) if k not in keys] if isinstance(poked, dict) else []
    earlier = NOT_REPORTED
    if "earlier" in msg:
        try:
            earlier = decode(msg["earlier"])
        except ProtocolError:
            earlier = NOT_REPORTED
    return Changed(keys, shared, earlier)


def changed(args, kwargs, after) -> list:
    """The positions and keyword names of the array arguments a call changed.

    The grader decides this, not the worker: each array argument it sent (``args``, ``kwargs``:
    its own copies) is compared with what the worker says it held after the call (``after``,
    the answer's {"args": [...], "kwargs": {...}}, each encoded like a return value). A reported
    array is validated first, as a return value is: the dtype and shape of what was sent, then
    bytes that fit them. One missing, unreadable, of another dtype or shape, or unequal, changed.
    """
    after = after if isinstance(after, dict) else {}
    now_args = after.get("args") if isinstance(after.get("args"), list) else []
    now_kwargs = after.get("kwargs") if isinstance(after.get("kwargs"), dict) else {}
    sent = [(i, a, now_args[i] if i < len(now_args) else None) for i, a in enumerate(args)]
    sent += [(k, v, now_kwargs.get(k)) for k, v in kwargs.items()]
    return [key for key, a, now in sent if isinstance(a, np.ndarray) and not _unchanged(_as_sent(a), now)]


def _unchanged(sent: np.ndarray, reported) -> bool:
    meta = reported.get("__nd__") if isinstance(reported, dict) else None
    if not isinstance(meta, dict) or meta.get("dtype") != sent.dtype.str or meta.get("shape") != list(sent.shape):
        return False
    try:
        now = _decode_array(meta)
    except ProtocolError:
        return False
    return (isinstance(now, np.ndarray) and now.dtype == sent.dtype and now.shape == sent.shape
            and bool(np.array_equal(now, sent, equal_nan=True)))
