"""Record a check once, replay it for every student: same grades, less work.

With derandomized settings, Hypothesis draws exactly the same inputs for
every submission that passes, and a check makes exactly the same calls.
So, once per process and check, we *record*: run the check against the
reference solution (in this trusted process), keeping the inputs each
``for_all`` drew and every call the check made. For a student we *replay*:
send all recorded calls to the worker in one round trip, then run the check
again, serving its calls from those answers and its ``for_all`` inputs from
the recording, with no Hypothesis at all.

Only a pass is taken from a replay; anything else (a failed property, a
failed expectation, an exception, a batch that hangs or kills the worker)
sends the check to a live run, which reports exactly what a live-only grader
would, including Hypothesis's shrunk counterexample. The live run still takes
the batch's answers while its calls follow the recording (Hypothesis draws the
same inputs up to the first failure); from the first call that differs (the
check branched on an answer, or Hypothesis is shrinking) calls go to the
worker one by one, in order.
A replay that passed is remembered (``Passes``): the next time the same batch
gets exactly the same answers, the check is known to pass without running it
again. A replay is a function of the check's code, its plan and those answers,
so the pass is remembered only when nothing else decided it: no call went live
and no time bound was met on the way (kit/remember.py, ``noting_bounds``).
The one difference from a live run: a student function that keeps state
between calls (NumPy's global random state, say) sees the recorded calls all
at once, so a replay may pass where a live run would have failed, or the
other way round; the grade is still deterministic.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field

from ..kit import remember, variants
from ..kit.mode import Mode, active
from ..kit.checks import Fail, submission_of
from ..kit.text import call_text
from ..sandbox.inside import worker as wirefmt
from ..bounded.helper import start_expected
from ..sandbox.errors import BatchTimeout, StudentError, Timeout
from ..sandbox.submission import interpret, request
from . import behaviour
from .plancache import plan_key
from .shrinks import hearing, reproduce


@dataclass
class Plan:
    calls: list = field(default_factory=list)  # requests, in order
    examples: dict = field(default_factory=dict)  # for_all site -> inputs drawn, in order
    key: str = ""  # its key in the plan cache (plancache.plan_key): everything it depends on


class Recording:
    """The ``sub`` a check sees while it is recorded: the reference answers, in process."""

    def __init__(self, ref):
        self.ref, self.plan = ref, Plan()

    def call(self, func, *args, **kwargs):
        return self._call(func, args, kwargs, False)[0]

    def call_full(self, func, *args, **kwargs):
        return self._call(func, args, kwargs, True)

    def _call(self, func, args, kwargs, after):
        req = request(func, args, kwargs, after)
        self.plan.calls.append(req)
        answer = wirefmt.call(self.ref, "<reference>", copy.deepcopy(req))
        return interpret("the reference", func, args, kwargs, answer, call_text)


class Replay:
    """The ``sub`` a check sees while replayed: recorded calls answered from one batch."""

    def __init__(self, sub, plan: Plan, answers, hung=None):
        self.sub, self.plan, self.answers = sub, plan, answers
        self.hung = hung  # the Timeout of the call after the last answer (the batch stopped there)
        self.next, self.live = 0, False

    def call(self, func, *args, **kwargs):
        return self._call(func, args, kwargs, False)[0]

    def call_full(self, func, *args, **kwargs):
        return self._call(func, args, kwargs, True)

    def _call(self, func, args, kwargs, after):
        if not self.live and self.next < len(self.plan.calls):
            req = request(func, args, kwargs, after)
            if req == self.plan.calls[self.next]:
                if self.next == len(self.answers):  # the call that hung (the batch stopped there)
                    self.live = True  # what the check does next is live, as after a live call that timed out
                    submission_of(self.sub).printed = ""
                    raise Timeout(str(self.hung))
                answer = self.answers[self.next]
                self.next += 1
                return self.sub.interpret(func, args, kwargs, answer)
        self.live = True  # the check took another path: from here on, live calls
        return self.sub.call_full(func, *args, **kwargs) if after else (self.sub.call(func, *args, **kwargs), [])


def run_recorded(fn, ref):
    """Record ``fn`` against the reference; return its Plan, or None if it did not pass."""
    rec = Recording(ref)
    with active(Mode(rec.plan.examples, recording=True)):
        try:
            fn(rec, ref)
        except Exception:  # noqa: BLE001 - a check that fails on the reference is simply run live
            return None
    return rec.plan


def run_check(fn, sub, ref, plan: Plan | None, passes=None, shrinks=None):
    """Run check ``fn`` for a student: replayed from ``plan`` when it passes, else live.

    The live run reuses the batch's answers for as long as its calls follow
    the recording: Hypothesis draws the same inputs up to the first failure,
    so only the shrinking calls reach the worker one by one. A batch whose
    call hangs gives the live run the answers before that call and then the
    call's Timeout, as the call made live would have raised it, without
    waiting for it a second time. ``passes`` (plancache.PassStore) remembers
    the replays that passed; ``shrinks`` (shrinks.ShrinkStore, and whether it may use
    the disk) the live runs that failed, and what their live calls got.
    """
    answers = hung = None
    if plan is not None:
        try:
            answers = sub.batch(plan.calls) if plan.calls else []
        except BatchTimeout as exc:  # a call hung: the live run gets the answers before it, then its Timeout
            answers, hung = exc.answers, exc.call
        except StudentError:
            answers = None  # the batch ended the worker: single calls will say which call
        behaviour.saw(plan, answers, hung)
    # The answers' name (``pass_name``): a remembered pass, or a kept failed run (shrinks.py), is found by it.
    name = pass_name(plan, ref, answers) if (passes is not None or shrinks is not None) \
        and answers is not None and hung is None and plan.key else None
    if name is not None and passes is not None and passes.has(plan.key, name):
        return
    # The check's logic runs: the helper that reads exact answers warms up meanwhile (not before:
    # its warm-up imports SymPy, which a re-check whose passes are all remembered never needs).
    start_expected()
    if answers is not None and hung is None:
        with active(Mode(plan.examples, recording=False)), remember.noting_bounds() as met:
            replay = Replay(sub, plan, answers)
            try:
                fn(replay, ref)
            except Exception:  # noqa: BLE001 - anything but a pass (NeedLive included) is graded live
                pass
            else:
                if name is not None and passes is not None and not replay.live and not met:
                    passes.add(plan.key, name)
                return
    live = Replay(sub, plan, answers, hung) if answers is not None else sub
    if name is None or shrinks is None:
        return fn(live, ref)
    store, disk = shrinks
    kept = store.load(name, disk)
    if kept is not None:
        reproduce(sub, kept)  # raises the kept Fail when every answer is the same again
    with hearing(sub) as heard, remember.noting_bounds() as met:
        try:
            fn(live, ref)
        except Fail as exc:
            if heard is not None and not heard.spoiled and not met:
                store.keep(name, heard.shrink(exc, submission_of(sub).printed), disk)
            raise


def pass_name(plan: Plan, ref, answers) -> str:
    """The name of "this plan's replay, given these answers, passes": the plan's key (the
    check's code, its reference, the versions), whether the check has the reference, the answers
    exactly as the worker sent them (what they printed too), mpmath's version, and the student's
    variant (kit/variants.py). Plans are recorded on the seed's numbers and shared by every variant:
    a check whose calls depend on the variant leaves the recording at its first other call and goes
    live, as any replay does; but the same answers may pass on one variant and fail on another."""
    variant = f"variant {variants.current()}\0" if variants.current() else ""
    h = hashlib.sha256(f"pass\0{plan.key}\0{ref is not None}\0{remember.deciders()}\0{variant}".encode())
    h.update(json.dumps(answers, sort_keys=True, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class Plans:
    """Recorded plans, per check: in memory for the life of this process, and on disk
    (plancache.py) across processes when a store is given."""

    def __init__(self, store=None):
        self.cache, self.store = {}, store

    def get(self, fn, ref, *, solution=None, disk=True):
        """The plan of check ``fn``: from memory, else from the store, else recorded
        against ``ref`` (the reference module, read from ``solution``) and stored.
        ``disk=False``: the user's cache is neither read nor written (shipped plans still
        are). Without a reference only a stored plan can be had; else None (run live)."""
        key = plan_key(fn.__module__, fn.__qualname__, solution if ref is not None else None)
        if key in self.cache:
            return self.cache[key]
        found, stored = self.store.load(key, cache=disk) if self.store is not None else (False, None)
        plan = Plan(*stored) if stored is not None else None
        if not found:
            if ref is None:
                return None
            with variants.active(0):  # on the seed's numbers, which the reference answers: see pass_name
                plan = run_recorded(fn, ref)
            if self.store is not None and disk:
                self.store.save(key, plan)
        if plan is not None:
            plan.key = key
        self.cache[key] = plan
        return plan
