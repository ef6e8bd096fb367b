"""Short, readable renderings of arguments and answers for feedback."""

from __future__ import annotations

import numpy as np

from graders.wire import Rejected, SympyText


def show(x, precision=4) -> str:
    """A short, readable rendering of an argument or answer for feedback."""
    if isinstance(x, np.ndarray):
        if x.dtype == bool:
            return np.array2string(x, separator=", ", threshold=60)
        return np.array2string(x, precision=precision, suppress_small=True, separator=", ",
                               threshold=60, max_line_width=100)
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
    parts = [show(a) for a in args] + [f"{k}={show(v)}" for k, v in kwargs.items()]
    one_line = ", ".join(parts)
    if "\n" in one_line or len(one_line) > 90:
        return f"{func}(\n    " + ",\n    ".join(p.replace("\n", "\n    ") for p in parts) + ")"
    return f"{func}({one_line})"
