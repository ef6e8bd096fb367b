"""What a file's answers do, as data a class report can group and compare.

Every student's file answers the same recorded calls (plans.py). Each answer,
rounded to about six significant digits (so that two ways of computing the
same thing agree) and hashed, is a *token*; what a call printed is left out,
since a debugging print changes nothing a function does. For one exercise file:

* ``signature``: a digest of every token, call by call. Two files that answer
  every recorded call alike share it: the class report groups an exercise's
  files by it (classroom/report/groups.py), and an instructor's comment written for
  a group follows it (classroom/report/comments.py).
* ``differ``: for the first MAX_DIFFER calls it answers otherwise than the
  reference, the call's key and the answer's token: what two students' wrong
  answers can have in common.
* ``shown``: the first SHOWN of those calls and the file's answers, as text,
  for a person to read.

It is computed only when asked (the batch, ``observing``), from answers the
checks' batches got anyway; the reference's answers are computed here, in the
trusted process, once per plan and kept beside the plans (plancache.py's
``expected/``, where no sandbox can see them), so a later batch reads them.
Nothing here changes a grade.
"""

from __future__ import annotations

import base64
import copy
import hashlib
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from ..kit.catalogue import NAMED
from ..kit.text import call_text, show
from .results import clean
from ..sandbox import wire
from ..sandbox.inside import worker as wirefmt

KEPT_BITS = 20  # of a float's mantissa: about six significant digits
MAX_DIFFER = 32  # calls answered otherwise than the reference, kept per file
SHOWN = 2  # of those, shown as text
SHOWN_CHARS = 300

_current: ContextVar = ContextVar("behaviour", default=None)
_reference_tokens: dict = {}  # plan key -> the reference's tokens (this process)


class Observed:
    """The tokens of one file's answers, check by check, as the checks' batches got them."""

    def __init__(self, ref, variant: int = 0, kept=None):
        self.ref, self.tokens, self.differ, self.shown = ref, [], [], []
        self.variant = variant  # the student's numbers (kit/variants.py): the same answers on others are not alike
        self.kept = kept  # plancache.ExpectedStore, where the reference's tokens are kept (None: not kept)

    def add(self, plan, answers, hung=None) -> None:
        expected = _expected(plan, self.ref, self.kept)
        self.tokens.append(f"plan {plan.key}")  # which check's calls the tokens below answer
        for i, req in enumerate(plan.calls):
            if i < len(answers):
                token = token_of(answers[i])
            else:
                token = "timed out" if i == len(answers) and hung is not None else "not answered"
            self.tokens.append(token)
            if expected is not None and token != expected[i] and len(self.differ) < MAX_DIFFER:
                key = hashlib.sha256(f"{plan.key}\0{i}".encode()).hexdigest()[:12]
                short = token if is_value(token) or len(token) <= 24 else "x" + _hex(token)[:15]  # no value
                self.differ.append(f"{key}:{short}")
                if len(self.shown) < SHOWN:
                    self.shown.append({"call": _cut(_call_shown(req)),
                                       "answer": _cut(_answer_shown(answers[i] if i < len(answers) else None,
                                                                    token))})

    def result(self, checks=()) -> dict | None:
        """The record; ``checks``, the file's check results, matter on a variant: there the same mistake
        gives other answers on each student's numbers, so a file whose feedback names a known mistake
        is known by the mistakes it names, not by its answers."""
        if not self.tokens:
            return None
        calls = sum(not t.startswith("plan ") for t in self.tokens)
        named = _named(checks) if self.variant else []
        tokens = named or self.tokens + ([f"variant {self.variant}"] if self.variant else [])
        return {"signature": _hex("\n".join(tokens)), "calls": calls, "differ": self.differ, "shown": self.shown,
                **({"variant": self.variant} if self.variant else {})}


def _named(checks) -> list:
    """The known mistakes the lost checks' messages name, each once, sorted; [] when they name none.
    Which checks lost is left out: on some students' numbers a mistake leaves a value right (a dot
    product of 0 needs no scaling), and they made the mistake all the same."""
    named = {" ".join(m.split()) for c in checks if not c.passed for m in NAMED.findall(c.message)}
    return ["named mistakes", *sorted(named)] if named else []


@contextmanager
def observing(ref, variant: int = 0, kept=None):
    """Collect the answers of the checks run inside (``saw``) into an Observed, for ``ref`` and the
    student's ``variant`` (``kept``: where the reference's tokens are kept); the reference answers
    the seed's numbers, so on a variant ``differ`` says where the file answers otherwise than the
    seed, which a right answer does too."""
    observed = Observed(ref, variant, kept)
    reset = _current.set(observed)
    try:
        yield observed
    finally:
        _current.reset(reset)


def saw(plan, answers, hung=None) -> None:
    """A check's batch got ``answers`` to ``plan``'s calls: kept if someone is observing."""
    observed = _current.get()
    if observed is not None and plan is not None and answers is not None:
        observed.add(plan, answers, hung)


def token_of(msg) -> str:
    """One raw answer of the worker as a short token: equal for answers equal once rounded."""
    if not isinstance(msg, dict):
        return "malformed"
    if msg.get("missing"):
        return "missing"
    if not msg.get("ok"):
        error = msg.get("error")
        kind = error.get("type") if isinstance(error, dict) else None
        return f"raised {clean(kind[:40])}" if isinstance(kind, str) else "raised"
    h = hashlib.sha256()
    try:
        _feed(h, wire.decode(msg.get("value")))
        after = msg.get("after")  # the array arguments as they were after the call, for call_full
        if isinstance(after, dict):
            args, kwargs = after.get("args"), after.get("kwargs")
            _feed(h, [wire.decode(a) for a in args] if isinstance(args, list) else "no args")
            _feed(h, [(k, wire.decode(v)) for k, v in sorted(kwargs.items())] if isinstance(kwargs, dict) else "no kwargs")
    except (wire.ProtocolError, TypeError):
        return "unreadable"
    return h.hexdigest()[:16]


def is_value(token: str) -> bool:
    """Whether a token stands for values the file returned (not an exception, a timeout or no answer)."""
    return len(token) == 16 and all(c in "0123456789abcdef" for c in token)


def _feed(h, x, depth=0) -> None:
    if depth > 30:
        h.update(b"deep")
    elif isinstance(x, np.ndarray):
        h.update(f"nd{x.dtype.str}{x.shape}".encode())
        h.update(_rounded(x).tobytes() if x.dtype.kind == "f" else np.ascontiguousarray(x).tobytes())
    elif isinstance(x, float):
        h.update(f"f{getattr(x, 'dtype', '')}".encode() + _rounded(np.array([x])).tobytes())
    elif isinstance(x, (tuple, list)):
        h.update(f"{type(x).__name__}{len(x)}(".encode())
        for v in x:
            _feed(h, v, depth + 1)
        h.update(b")")
    elif isinstance(x, wire.SympyText):
        h.update(b"sympy" + x.text.encode("utf-8", "surrogatepass"))
    else:  # None, bool, int (a NumPy integer's type too), str, Rejected
        h.update(f"{type(x).__name__}:{getattr(x, 'dtype', '')}:{x!r}".encode("utf-8", "surrogatepass"))


def _rounded(a: np.ndarray) -> np.ndarray:
    """``a`` as float64 with KEPT_BITS bits of mantissa, -0.0 as 0.0 and one NaN."""
    a = np.asarray(a, dtype=np.float64)
    finite = np.isfinite(a)
    mantissa, exponent = np.frexp(np.where(finite, a, 0.0))
    r = np.ldexp(np.round(mantissa * (1 << KEPT_BITS)), exponent) + 0.0
    return np.where(finite, r, np.where(np.isnan(a), np.nan, a))


def _expected(plan, ref, kept=None):
    """The reference's tokens for ``plan``'s calls, or None without one: computed once per plan and
    process, or read from ``kept`` (an ExpectedStore), where they are then written. The plan's key
    names its calls and the reference it was recorded with, so the tokens are the same wherever
    they were computed."""
    if ref is None or not plan.key:
        return None
    if plan.key not in _reference_tokens:
        tokens = kept.load(plan.key, len(plan.calls)) if kept is not None else None
        if tokens is None:
            tokens = [token_of(wirefmt.call(ref, "<reference>", copy.deepcopy(req))) for req in plan.calls]
            if kept is not None:
                kept.keep(plan.key, tokens)
        _reference_tokens[plan.key] = tokens
    return _reference_tokens[plan.key]


def _hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def _call_shown(req) -> str:
    """A recorded call as text: it was made here, so it is read back as the parent's own data."""
    args = [_argument(a) for a in req.get("args", [])]
    kwargs = {k: _argument(v) for k, v in req.get("kwargs", {}).items()}
    return call_text(req.get("func", "?"), *args, **kwargs)


def _argument(x):
    if isinstance(x, dict):
        if "__nd__" in x:
            m = x["__nd__"]
            return np.frombuffer(base64.b64decode(m["b64"]), dtype=np.dtype(m["dtype"])).reshape(m["shape"])
        if "__rng__" in x:
            return wire.Rng(x["__rng__"])
        if "__mt19937__" in x:
            return _Label("a generator whose draws are chosen")
        if "__tuple__" in x:
            return tuple(_argument(v) for v in x["__tuple__"])
        if "__float__" in x:
            return float(x["__float__"])
        return {k: _argument(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_argument(v) for v in x]
    return x


class _Label(str):
    def __repr__(self):
        return f"<{self}>"


def _answer_shown(msg, token: str) -> str:
    if not (isinstance(msg, dict) and msg.get("ok")):
        return token
    try:
        return show(wire.decode(msg.get("value")))
    except wire.ProtocolError:
        return token

