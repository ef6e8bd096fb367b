"""A live run's outcome, kept by the answers that led to it: a class repeats its mistakes.

When a replay does not pass (plans.py), the check runs live: Hypothesis looks
for a failing input and shrinks it, calling the student's function one call at
a time. That run is a function of the check's code, its plan and the answers it
gets: the batch's answers, then each live call's answer in turn (Hypothesis is
derandomized: what it draws next depends only on what the test did so far). So
the live calls and their answers are kept with the Fail the run ended in
(``Shrink``), named as a pass is (plans.py's ``pass_name``: the plan, the
variant, the batch's answers). The next submission whose batch gives the same
answers is sent the kept live calls in one batch; if every answer is the same
again, the run would make exactly those calls and end in exactly that Fail, and
it is reported without running Hypothesis. Otherwise (another answer, a call
that hangs or ends the worker) the check runs live as before, the submission's
count of hangs and restarts put back as they were.

Kept only what the answers alone decided: not a run in which a call hung,
crashed or met a time budget, nor one in which a time or memory bound decided
something (kit/remember.py), nor one that named a mistake identified by probes
an earlier check of the same file made (kit/catalogue.py's ``identified``: the
run that makes the probes itself hears them), nor one that ended other than in
a Fail. As with a
replay (plans.py), a student function that keeps state between calls sees the
kept calls at once, and, where its answers then differ, the live calls again.

Kept in memory (the last MEMORY_CHARS of them) and, where no sandbox can see
the folder, on disk in ``shrinks/`` beside the plans (plancache.py's rule).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass

from ..kit.checks import Fail, submission_of
from ..kit.outcomes import Outcome
from ..sandbox.errors import StudentError
from .plancache import NamedFiles
from .planfile import Unsupported, decode, encode

MAX_CHARS = 1 << 20  # a kept run larger than this is not kept
MEMORY_CHARS = 32 << 20


@dataclass
class Shrink:
    calls: list  # the live calls, as the worker receives them (submission.request)
    answers: list  # their answers, as the worker sent them (canonical JSON texts)
    message: str
    fraction: float
    outcome: str
    printed: str  # what the call answered last printed (engine.with_printed shows it)


class ShrinkStore(NamedFiles):
    """Kept live runs by name: in memory for this process, and in ``folder`` (None: memory only)."""

    def __init__(self, folder):
        super().__init__(folder)
        self.memory, self.chars = OrderedDict(), 0

    def load(self, name: str, disk: bool) -> Shrink | None:
        text = self.memory.get(name) or (self.get(name) if disk else None)
        try:
            data = json.loads(text) if text else None
            if not isinstance(data, dict) or data.get("key") != name:
                return None
            return Shrink([decode(c) for c in data["calls"]], list(data["answers"]), str(data["message"]),
                          float(data["fraction"]), Outcome(data["outcome"]).value, str(data["printed"]))
        except (ValueError, KeyError, TypeError, Unsupported):
            return None  # unreadable or altered: the check runs live

    def keep(self, name: str, shrink: Shrink, disk: bool) -> None:
        try:
            text = json.dumps({"key": name, "calls": [encode(c) for c in shrink.calls], "answers": shrink.answers,
                               "message": shrink.message, "fraction": shrink.fraction,
                               "outcome": shrink.outcome, "printed": shrink.printed})
        except (TypeError, ValueError, Unsupported):
            return
        if len(text) > MAX_CHARS:
            return
        self.memory[name] = text
        self.chars += len(text)
        while self.chars > MEMORY_CHARS:
            self.chars -= len(self.memory.popitem(last=False)[1])
        if disk:
            self.put(name, text)


def canonical(answer) -> str:
    """An answer as text, without the number a single call's answer carries (sandbox.py's
    request id): the same answer to the same call, in a batch or alone, is the same text."""
    if isinstance(answer, dict) and "id" in answer:
        answer = {k: v for k, v in answer.items() if k != "id"}
    return json.dumps(answer, sort_keys=True, separators=(",", ":"))


def reproduce(sub, kept: Shrink) -> None:
    """Raise the kept Fail if the kept live calls get the kept answers again; else return,
    with the submission's counts of hangs and restarts as they were."""
    owner = submission_of(sub)
    before = dict(owner.broken), owner.timeouts_left, owner.restarts_left
    try:
        got = sub.batch(kept.calls) if kept.calls else []
    except StudentError:
        owner.broken.clear()
        owner.broken.update(before[0])
        owner.timeouts_left, owner.restarts_left = before[1], before[2]
        return
    if len(got) == len(kept.answers) and all(canonical(a) == b for a, b in zip(got, kept.answers)):
        owner.printed = kept.printed
        raise Fail(kept.message, kept.fraction, Outcome(kept.outcome))


class Heard:
    """What the live calls of one run got: filled by the Submission (``heard``), spoiled by a
    call that ended without an answer (a hang, a crash, a spent budget)."""

    def __init__(self):
        self.calls, self.answers, self.spoiled = [], [], False
        self.learned = set()  # the catalogues (kit/catalogue.py) whose probes this run made itself

    def answered(self, req, msg) -> None:
        self.calls.append(req)
        self.answers.append(canonical(msg))

    def shrink(self, exc: Fail, printed: str) -> Shrink:
        return Shrink(self.calls, self.answers, exc.message, float(exc.fraction), Outcome(exc.outcome).value, printed)


@contextmanager
def hearing(sub):
    """A Heard of the live calls made through ``sub`` in the block, or None where the
    submission cannot tell (a notebook's answer)."""
    owner = submission_of(sub)
    if not hasattr(owner, "heard"):
        yield None
        return
    heard = owner.heard = Heard()
    try:
        yield heard
    finally:
        owner.heard = None
