"""The file format of a recorded plan (plancache.py stores them): tagged JSON, never pickle.

Every value keeps its exact type: tuples, dicts with any keys, float specials,
NumPy arrays (dtype, shape and bytes) and scalars. ``decode`` accepts only
these forms, so an altered file fails to load (and the check is recorded
again) rather than running anything. A value of another kind raises
Unsupported, and that plan simply stays in memory.
"""

from __future__ import annotations

import base64
import math
from pathlib import Path

import numpy as np

FORMAT = 1
PACKAGE = Path(__file__).resolve().parents[1]  # graders/ (attn_checks/ in a student's copy)


class Unsupported(ValueError):
    """A value this format does not store: that plan stays in memory only."""


def plan_to_json(plan, key: str) -> dict:
    if plan is None:
        return {"format": FORMAT, "key": key, "plan": None}
    examples = [[_site_out(site[:-1]), site[-1], [encode(x) for x in xs]] for site, xs in plan.examples.items()]
    return {"format": FORMAT, "key": key, "plan": {"calls": [encode(c) for c in plan.calls], "examples": examples}}


def plan_from_json(data: dict, key: str, *, lazy: bool = False):
    """(calls, examples) of a stored plan (plans.py's Plan), or None. ``lazy``: the examples
    are decoded only when a replay first asks for them (``Examples``): a remembered pass
    (plans.py) needs only the calls."""
    if data["format"] != FORMAT or data["key"] != key:
        raise ValueError("another format or key")
    body = data["plan"]
    if body is None:
        return None
    calls = [decode(c) for c in body["calls"]]
    if not all(isinstance(c, dict) for c in calls) or not isinstance(body["examples"], list):
        raise ValueError("bad call")
    return calls, (Examples(body["examples"]) if lazy else examples_from_json(body["examples"]))


def examples_from_json(stored: list) -> dict:
    examples = {}
    for where, n, xs in stored:
        if not isinstance(n, int) or not isinstance(xs, list):
            raise ValueError("bad site")
        examples[(*_site_in(where), n)] = [decode(x) for x in xs]
    return examples


class Examples:
    """A stored plan's ``for_all`` inputs, decoded on the first ``get`` (kit/mode.py's only
    question in a replay). Stored inputs that do not decode raise ValueError there, and
    the check is graded live."""

    def __init__(self, stored: list):
        self.stored, self.decoded = stored, None

    def _all(self) -> dict:
        if self.decoded is None:
            self.decoded = examples_from_json(self.stored)
        return self.decoded

    def get(self, site, default=None):
        return self._all().get(site, default)

    def items(self):
        return self._all().items()


def _site_out(where) -> list:
    """A ``for_all`` site (source file, line) with the file relative to the package."""
    filename, line = where
    try:
        rel = Path(filename).resolve().relative_to(PACKAGE).as_posix()
    except ValueError:
        raise Unsupported(f"a for_all outside the package: {filename}") from None
    return [rel, line]


def _site_in(where) -> tuple:
    rel, line = where
    if not isinstance(rel, str) or not isinstance(line, int) or ".." in Path(rel).parts:
        raise ValueError("bad site")
    return (str(PACKAGE / rel), line)


def encode(x):
    """A drawn input or a recorded call as JSON, keeping its exact type and value."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if type(x) is int:
        return x
    if type(x) is float:
        return x if math.isfinite(x) else {"f": repr(x)}
    if type(x) is list:
        return [encode(v) for v in x]
    if type(x) is tuple:
        return {"t": [encode(v) for v in x]}
    if type(x) is dict:
        return {"d": [[encode(k), encode(v)] for k, v in x.items()]}
    if type(x) is np.ndarray and x.dtype.kind in "biuf":
        arr = np.ascontiguousarray(x)
        return {"a": arr.dtype.str, "s": list(arr.shape), "b": base64.b64encode(arr.tobytes()).decode()}
    if isinstance(x, np.generic) and x.dtype.kind in "biuf":
        return {"n": x.dtype.str, "b": base64.b64encode(x.tobytes()).decode()}
    raise Unsupported(f"cannot store a {type(x).__name__}")


def decode(x):
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, list):
        return [decode(v) for v in x]
    if not isinstance(x, dict) or len(x) not in (1, 2, 3):
        raise ValueError("bad value")
    if "f" in x:
        if x["f"] not in ("nan", "inf", "-inf"):
            raise ValueError("bad float")
        return float(x["f"])
    if "t" in x:
        return tuple(decode(v) for v in x["t"])
    if "d" in x:
        return {decode(k): decode(v) for k, v in x["d"]}
    if "a" in x:
        dt, shape = np.dtype(x["a"]), x["s"]
        if dt.kind not in "biuf" or not all(isinstance(n, int) and n >= 0 for n in shape):
            raise ValueError("bad array")
        return np.frombuffer(base64.b64decode(x["b"], validate=True), dtype=dt).reshape(shape).copy()
    if "n" in x:
        dt = np.dtype(x["n"])
        if dt.kind not in "biuf":
            raise ValueError("bad scalar")
        return np.frombuffer(base64.b64decode(x["b"], validate=True), dtype=dt)[0]
    raise ValueError("unknown tagged value")
