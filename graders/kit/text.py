"""Short, readable renderings of arguments and answers for feedback."""

from __future__ import annotations

import numpy as np

from ..sandbox.wire import Rejected, SympyText


THRESHOLD = 60  # arrays with more elements are summarised


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
    show the same recorded inputs again and again, so texts are remembered by content."""
    key = (a.dtype.str, a.shape, a.tobytes(), precision)
    text = _SHOWN.get(key)
    if text is None:
        if len(_SHOWN) >= 50_000:
            _SHOWN.clear()
        text = _SHOWN[key] = _show_array(a, precision)
    return text


_SHOWN: dict = {}


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
