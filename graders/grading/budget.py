"""Time budgets: how long one exercise file, and one student, may take in all.

A call is bounded by the call timeout, but a file whose every call is right
and sleeps just under it could hold a batch for twenty minutes, and a student
seven times that. A ``Budget`` is wall time left; ``Budgeted`` is the ``sub``
a check sees under it: each call gets at most the time left, and once it is
spent every call fails at once with a message that names the budget.
"""

from __future__ import annotations

import time

from ..sandbox.errors import Timeout


class Budget:
    """Wall time left for some work; ``what`` names it in messages ("one exercise file")."""

    def __init__(self, seconds: float, what: str, *, deadline: float | None = None):
        self.seconds, self.what = seconds, what
        self.deadline = time.monotonic() + seconds if deadline is None else deadline

    def left(self) -> float:
        return self.deadline - time.monotonic()

    @property
    def spent(self) -> bool:
        return self.left() <= 0

    def message(self) -> str:
        return (f"the time budget for {self.what} ({self.seconds:g} s) ran out: your code is much slower "
                f"than it needs to be, or it waits")

    def within(self, seconds: float, what: str) -> "Budget":
        """A budget of ``seconds`` for part of this work, ending no later than this one."""
        mine = Budget(seconds, what)
        return mine if mine.deadline <= self.deadline else Budget(self.seconds, self.what, deadline=self.deadline)


class Budgeted:
    """A Submission whose calls share one Budget (the interface plans.py and the checks use)."""

    def __init__(self, sub, budget: Budget):
        self.sub, self.budget = sub, budget

    def call(self, func, *args, **kwargs):
        return self._bounded(self.sub.call, func, *args, **kwargs)

    def call_full(self, func, *args, **kwargs):
        return self._bounded(self.sub.call_full, func, *args, **kwargs)

    def batch(self, requests):
        return self._bounded(self.sub.batch, requests, within=self.budget.left())  # the whole batch

    def interpret(self, func, args, kwargs, msg):
        return self.sub.interpret(func, args, kwargs, msg)

    def _spoil(self):  # the time a live run had decided it: grading/shrinks.py keeps no such run
        heard = getattr(self.sub, "heard", None)
        if heard is not None:
            heard.spoiled = True

    def _bounded(self, fn, *args, **kwargs):
        left = self.budget.left()
        if left <= 0:
            self._spoil()
            raise Timeout(self.budget.message())
        saved = self.sub.call_timeout
        self.sub.call_timeout = min(saved, left)
        try:
            return fn(*args, **kwargs)
        except Timeout:
            if self.budget.spent:
                self._spoil()
                raise Timeout(self.budget.message()) from None
            raise
        finally:
            self.sub.call_timeout = saved
