"""Naming a known mistake on evidence: Mistake, and Catalogue, which gives its hint only where
discriminating probes confirm it.

A grader lists the known mistakes of one of the student's functions, each with a model of the
answer it produces, and probes that tell them apart (tests/test_diagnoses.py checks that they do).
``Catalogue.fail``, ``.expect`` and ``.reworded`` fail as checks.py's ``fail``, ``expect`` and
``reworded`` do, adding "It looks like ..." when the student's function follows one mistake's model
on every probe; ``Catalogue.call`` adds it to what the student's code raised.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .checks import Fail, Raised, StudentError, aside, submission_of

__all__ = ["Mistake", "Catalogue", "HINTS", "NAMED"]

HINTS: set = set()  # the text of every hint a grader can give ("It looks like ..."), for the tests
NAMED = re.compile(r"[Ii]t looks like (.+?)\.(?=\s|$)", re.S)  # what a message's hint says the mistake is


@dataclass(frozen=True)
class Mistake:
    """A known mistake: ``says`` completes "It looks like ...", and ``model(*args, **kwargs)``
    gives the answer that mistake produces (in the form ``Catalogue.read`` gives the student's)."""

    says: str
    model: object
    parts: dict = field(default=None, compare=False)  # the knobs of a Catalogue's ``combine`` it switches

    def __post_init__(self):
        HINTS.update((self.hint, self.partial))

    @property
    def hint(self) -> str:
        return f"It looks like {self.says}."

    @property
    def partial(self) -> str:
        """The hint where this mistake is in the answers but does not give the failing one alone."""
        return f"{self.hint} That alone does not give this result: there is more than one mistake."


def both(a: Mistake, b: Mistake, model) -> Mistake:
    """Two mistakes at once, named together."""
    return Mistake(f"there are two mistakes: {a.says}; and {b.says}", model, {**a.parts, **b.parts})


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
    combine: object = None  # parts (two mistakes' knobs) -> the model of both mistakes at once

    def __post_init__(self):
        object.__setattr__(self, "pairs", tuple(
            both(a, b, self.combine({**a.parts, **b.parts})) for a, b in combinations(self.mistakes, 2)
            if self.combine and a.parts and b.parts and not set(a.parts) & set(b.parts)))

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
        for candidates in (self.mistakes, self.pairs):  # one mistake; else two at once
            found = [m for m in candidates if all(self.follows(got, _model(m, a, k))
                                                  for got, (a, k) in zip(answers, self.probes))]
            if found:
                return found[0] if len(found) == 1 else None
        return None

    def follows(self, got, modelled) -> bool:
        if got is _RAISED or modelled is None:
            return got is _RAISED and modelled is None
        return self.same(got, modelled)

    def identified(self, sub):
        """The mistake the probes identify, or None. Worked out once per submission (a check that
        fails is shrunk, and several checks fail for one mistake)."""
        base = getattr(sub, "sub", sub)  # a replayed check's sub wraps the submission
        known = base.__dict__.setdefault("_identified", {})
        heard = getattr(submission_of(sub), "heard", None)  # a live run kept by its answers (grading/shrinks.py)
        if id(self) not in known:
            with aside(sub):
                known[id(self)] = self.identify(sub)
            if heard is not None:
                heard.learned.add(id(self))
        elif heard is not None and id(self) not in heard.learned:
            heard.spoiled = True  # decided by probes an earlier check made, not by this run's answers alone
        return known[id(self)]

    def hint(self, sub) -> str:
        """" It looks like ..." for the mistake the probes identify, else ""."""
        found = self.identified(sub)
        return f" {found.hint}" if found else ""

    def fail(self, sub, message: str, advice: str = "", *, fraction: float = 0.0, case=None):
        """Fail with ``message`` and the hint of the mistake the probes identify; without one, with
        ``advice`` (registered with ``advice()``), which only the check's own observation may justify
        (the result *was* infinite), never the check's title alone. The way a check of this function
        fails, wherever a known mistake may be the cause.

        ``case``, (args, kwargs, answer): the failing call and the student's answer to it. Where the
        identified mistake's model answers that call otherwise, the mistake is named as one of several
        (``Mistake.partial``), and ``advice`` follows it; else the hint and the advice are never both
        given."""
        found = self.identified(sub)
        if found is not None and case is not None and not self.explains(found, *case):
            raise Fail(f"{message} {found.partial}" + (f" {advice}" if advice else ""), fraction) from None
        raise Fail(message + (f" {found.hint}" if found else (f" {advice}" if advice else "")), fraction) from None

    def explains(self, mistake: Mistake, args, kwargs, answer) -> bool:
        """Whether ``mistake``'s model gives the student's ``answer`` to the call (args, kwargs)."""
        try:
            got = self.read(answer) if self.read else answer
        except Fail:
            return False
        return self.follows(got, _model(mistake, args, kwargs))

    def expect(self, sub, condition: bool, message: str, advice: str = "", case=None):
        """``expect``, with the hint (or ``advice``) of ``fail`` when ``condition`` does not hold."""
        if not condition:
            self.fail(sub, message, advice, case=case)

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


def _model(mistake, args, kwargs):
    """A mistake's answer to a probe, or None where the mistake cannot give one."""
    try:
        with np.errstate(all="ignore"):
            return mistake.model(*args, **kwargs)
    except Exception:  # noqa: BLE001 - e.g. a shape that mistake cannot handle
        return None
