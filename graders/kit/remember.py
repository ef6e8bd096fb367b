"""Verdicts that are costly to reach and the same every time, kept across runs.

Reading and comparing an exact answer (exact.py) takes a process of its own
and SymPy's simplification: most of what a re-check of an unchanged answer
costs. What it decides depends only on the answer, the reference, the
settings and the code and versions that decide it, so exact.py keeps each
settled verdict under a digest of all of these, in a store the grading engine
lends for the length of one file (``using``): the user's cache, where no
sandbox can see or write it (graders/grading/plancache.py, VerdictStore). A
verdict reached at a time bound (undecided, or past a bound) is never kept.
Without a store (in a notebook, or a cache a sandbox could reach) nothing is
kept and every verdict is reached afresh: the same one.

The grading engine also remembers whole checks that passed (grading/plans.py);
``noting_bounds`` tells it whether a time bound was met on the way
(``bound_met``), which would make that pass not the same every time.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from ..sandbox.zygote import installed

_STORE = contextvars.ContextVar("attn_verdict_store", default=None)
_BOUNDS = contextvars.ContextVar("attn_bounds_met", default=None)


@contextmanager
def using(store):
    """Let ``store`` (``get(name) -> text or None``, ``put(name, text)``) keep verdicts inside the block."""
    token = _STORE.set(store)
    try:
        yield store
    finally:
        _STORE.reset(token)


@contextmanager
def noting_bounds():
    """A list, empty unless a time or memory bound was met inside the block (``bound_met``)."""
    met = []
    token = _BOUNDS.set(met)
    try:
        yield met
    finally:
        _BOUNDS.reset(token)


def bound_met() -> None:
    """Something was decided by a bound (a time limit fired, a job was stopped): note it."""
    met = _BOUNDS.get()
    if met is not None:
        met.append(True)


def key(kind: str, *parts) -> str:
    """The name of one verdict: its kind, its inputs (as text) and what decides it."""
    h = hashlib.sha256()
    for part in (kind, deciders(), *parts):
        h.update(str(part).encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()


def recall(name: str):
    """The value kept under ``name`` (plain JSON), or None."""
    store = _STORE.get()
    if store is None:
        return None
    text = store.get(name)
    try:
        data = json.loads(text) if text is not None else None
        return data["value"] if data is not None and data["key"] == name else None
    except (ValueError, TypeError, KeyError):
        return None  # unreadable, or a file of another name: reached afresh, and kept again


def keep(name: str, value) -> None:
    store = _STORE.get()
    if store is not None:
        store.put(name, json.dumps({"key": name, "value": value}, separators=(",", ":")))


@lru_cache(maxsize=None)
def deciders() -> str:
    """The code and versions a verdict depends on: exact.py, equality.py, parse.py, text.py, SymPy, mpmath, Python."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("exact.py", "equality.py", "parse.py", "text.py", "remember.py"):
        h.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
    found = [f"{dist} {installed(dist) or 'none'}" for dist in ("sympy", "mpmath")]  # mpmath: SymPy's numbers
    return f"{h.hexdigest()} {'; '.join(found)} {sys.implementation.cache_tag}"
