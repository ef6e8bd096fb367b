"""Short, readable renderings of arguments and answers for feedback; memos bounded in bytes."""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np

from ..sandbox.wire import Rejected, SympyText

__all__ = ["show", "call_text", "show_array", "digest", "Memo", "THRESHOLD"]


THRESHOLD = 60  # arrays with more elements are summarised


class Memo:
    """A dict of remembered results that never holds more than ``budget`` bytes.

    Each entry is charged the size its owner gives it; the oldest entries go
    first when the budget is spent. Keys should be small (a digest, not the
    data itself): a memo keyed by a 16 MB array's bytes holds the 16 MB.
    """

    def __init__(self, budget: int):
        self.budget, self.used = budget, 0
        self.entries: OrderedDict = OrderedDict()  # key -> (value, charge)

    def get(self, key, default=None):
        found = self.entries.get(key)
        if found is None:
            return default
        self.entries.move_to_end(key)
        return found[0]

    def put(self, key, value, charge: int):
        if charge > self.budget:
            return value
        old = self.entries.pop(key, None)
        self.used += charge - (old[1] if old else 0)
        self.entries[key] = (value, charge)
        while self.used > self.budget:
            _, (_, freed) = self.entries.popitem(last=False)
            self.used -= freed
        return value

    def clear(self):
        self.entries.clear()
        self.used = 0

    def __len__(self):
        return len(self.entries)


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _number(v, precision):
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if v != 0 and not 10.0 ** -precision <= abs(v) < 1e5:
        return f"{v:.{precision}g}"
    text = f"{v:.{precision}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def show_array(a: np.ndarray, precision=4) -> str:
    """numpy-like text for a small array, built by hand: np.array2string costs ~0.4 ms a call,
    and messages are built for every call a check makes. Checks replayed for every student
    show the same recorded inputs again and again, so texts of small arrays are remembered
    by a digest of their content (a large array's summary is cheap and never remembered)."""
    if a.size > THRESHOLD:
        return _show_array(a, precision)
    key = (a.dtype.str, a.shape, precision, digest(np.ascontiguousarray(a).tobytes()))
    text = _SHOWN.get(key)
    if text is None:
        text = _show_array(a, precision)
        _SHOWN.put(key, text, 200 + 8 * a.ndim + len(text))  # roughly what the entry holds
    return text


_SHOWN = Memo(8 << 20)  # bytes of remembered texts, keys included


def _show_array(a: np.ndarray, precision: int) -> str:
    if a.size > THRESHOLD:
        finite = a[np.isfinite(a)] if a.dtype.kind == "f" else a
        span = f", min {show(finite.min().item())}, max {show(finite.max().item())}" if finite.size else ""
        return f"<array of shape {a.shape}{span}>"
    if a.dtype == bool:
        cells = ["True" if v else "False" for v in a.ravel().tolist()]
    elif a.dtype.kind in "iu":
        cells = [str(v) for v in a.ravel().tolist()]
    else:
        cells = [_number(v, precision) for v in a.astype(np.float64).ravel().tolist()]
    width = max((len(c) for c in cells), default=0)
    cells = [c.rjust(width) for c in cells]
    if a.ndim == 0:
        return cells[0].strip()

    def nest(shape, items, depth):
        if len(shape) == 1:
            return "[" + ", ".join(items) + "]"
        step = len(items) // shape[0] if shape[0] else 0
        rows = [nest(shape[1:], items[i * step:(i + 1) * step], depth + 1) for i in range(shape[0])]
        return "[" + (",\n" + " " * (depth + 1)).join(rows) + "]"

    return nest(a.shape, cells, 0)


def show(x, precision=4) -> str:
    """A short, readable rendering of an argument or answer for feedback."""
    if isinstance(x, np.ndarray):
        return show_array(x, precision)
    if isinstance(x, float):
        text = f"{x:.{precision + 2}g}"
        return text + ".0" if text.lstrip("-").isdigit() else text  # 64.0 is not the int 64
    if isinstance(x, tuple):
        return "(" + ", ".join(show(v, precision) for v in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, list):
        return "[" + ", ".join(show(v, precision) for v in x) + "]"
    if isinstance(x, SympyText):
        return x.text if len(x.text) < 200 else x.text[:197] + "..."
    if isinstance(x, Rejected):
        return x.reason
    return repr(x)


def call_text(func: str, *args, **kwargs) -> str:
    parts = [show(a) for a in args] + [f"{k}=" + show(v).replace("\n", "\n" + " " * (len(k) + 1))
                                       for k, v in kwargs.items()]
    one_line = ", ".join(parts)
    if "\n" in one_line or len(one_line) > 90:
        return f"{func}(\n    " + ",\n    ".join(p.replace("\n", "\n    ") for p in parts) + ")"
    return f"{func}({one_line})"
