"""What ``for_all`` does with its inputs in the current check: draw, record or replay.

graders/grading/plans.py records a check once against the reference solution
and replays it for every student; it sets the mode for the length of one
check with ``active``. With no mode set (the default), ``for_all`` simply
draws its inputs with Hypothesis.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

_MODE = contextvars.ContextVar("attn_plan_mode", default=None)


class NeedLive(Exception):
    """A replayed property failed: run the check live to shrink the counterexample."""


class Mode:
    """The inputs of one check's ``for_all`` calls: kept while recording, served while replaying."""

    def __init__(self, examples: dict, recording: bool):
        self.examples, self.recording = examples, recording
        self.seen = {}

    def site_examples(self, where):
        """The recorded inputs of the n-th ``for_all`` at source location ``where`` in this check."""
        n = self.seen[where] = self.seen.get(where, -1) + 1
        site = (*where, n)
        return self.examples.setdefault(site, []) if self.recording else self.examples.get(site)


def current_mode():
    return _MODE.get()


@contextmanager
def active(mode: Mode):
    """Let ``mode`` be the current mode inside the block."""
    token = _MODE.set(mode)
    try:
        yield mode
    finally:
        _MODE.reset(token)
