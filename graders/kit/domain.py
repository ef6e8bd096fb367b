"""What each stub promises about its inputs, written once: the checks stay inside it.

A check may only call a student's function with inputs the stub and the lesson promise (the
first rule of a grader: right code keeps every point). Each grader states its exercise's promise
as ``DOMAIN = Domain(...)``: for each function, the stub's own words and a test of one call's
arguments that names what lies outside them. tests/test_domain.py grades the reference, the
right alternatives and the mutants while it records every call the checks make, and fails on a
call outside its function's domain. A probe past the domain earns no points; where the course
wants more, the stub says so first and the domain grows with it.

The one figure the stubs share: scores "run into the thousands" (attention, multi_head), "as
large as ±1e4" (softmax), "hundreds or thousands" (worked_example). So every score a check makes
lies within ±SCORE_LIMIT, and a masked score filled with -1e9 (as the tutorials do) or
np.finfo(float).min is as good as -inf.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Domain", "SCORE_LIMIT", "scores_within", "entries_within"]

SCORE_LIMIT = 1e4


@dataclass(frozen=True)
class Domain:
    """For each function of an exercise: (the stub's words, ``outside(*args, **kwargs)``), where
    ``outside`` returns what lies outside the promise, or None. A function not named takes anything
    (its stub promises nothing narrower than its signature)."""

    promises: dict = field(default_factory=dict)

    def outside(self, func: str, args: tuple, kwargs: dict) -> str | None:
        promise = self.promises.get(func)
        if promise is None:
            return None
        words, test = promise
        try:
            problem = test(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as exc:  # arguments the test cannot read: outside
            problem = f"arguments it cannot read ({type(exc).__name__}: {exc})"
        return f"{problem} (the stub promises {words})" if problem else None


def _largest(x) -> float:
    x = np.asarray(x, dtype=np.float64)
    finite = x[np.isfinite(x)]
    return float(np.abs(finite).max()) if finite.size else 0.0


def entries_within(z, limit: float = SCORE_LIMIT, minus_inf: bool = True) -> str | None:
    """Every entry of ``z`` finite within ±limit (or -inf where ``minus_inf``)."""
    entries = np.asarray(z, dtype=np.float64)
    if np.isnan(entries).any() or np.isposinf(entries).any() or (not minus_inf and np.isneginf(entries).any()):
        return "an entry that is NaN or infinite"
    if _largest(entries) > limit:
        return f"an entry of magnitude {_largest(entries):.3g}, beyond {limit:g}"
    return None


def scores_within(q, k, limit: float = SCORE_LIMIT, heads: int = 1) -> str | None:
    """Every score q·k / √d_k of queries ``q`` (N_q, d) against keys ``k`` (N_k, d), split into
    ``heads`` blocks of columns (one score matrix per head), finite and within ±limit."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    if not (np.isfinite(q).all() and np.isfinite(k).all()):
        return "queries or keys that are not finite"
    d = q.shape[1] // heads
    with np.errstate(all="ignore"):
        s = np.concatenate([(q[:, h * d:(h + 1) * d] @ k[:, h * d:(h + 1) * d].T / np.sqrt(d)).ravel()
                            for h in range(heads)])
    if not np.isfinite(s).all():
        return "scores beyond float64's range"
    largest = float(np.abs(s).max(initial=0.0))
    return f"scores of magnitude {largest:.3g}, beyond {limit:g}" if largest > limit else None
