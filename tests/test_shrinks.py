"""Live runs that failed, kept by the answers that led to them (graders/grading/shrinks.py): a
kept run gives exactly the grade a live run gives, and only the answers alone decide one."""

from __future__ import annotations

import pytest

from cases import cases, sample, submit, view
from graders import registry
from graders.grading import plans, shrinks
from graders.grading.engine import grade_file
from graders.grading.shrinks import ShrinkStore
from graders.kit import remember
from graders.kit.checks import Fail
from graders.kit.mode import current_mode
from graders.sandbox.errors import Timeout
from graders.sandbox.submission import request
from support.caches import patch_caches
from test_passes import _check as _counted  # a check that counts its runs

CASES = [c for c in cases(mutants=4, alternatives=0) if "mutants" in str(c[1])]


# ------------------------------------------------------------------ run_check, with a stand-in worker
class Sub:
    """A worker stand-in: a batch's calls and each live call answered by ``answer(x)``; it
    counts batches and live calls and hears the live calls as a Submission does."""

    def __init__(self, answer=lambda x: x, hang_at=None):
        self.answer, self.hang_at = answer, hang_at
        self.batches = self.singles = 0
        self.printed, self.heard = "", None
        self.broken, self.timeouts_left, self.restarts_left = {}, 3, 4

    def batch(self, requests):
        self.batches += 1
        return [self._msg(r["args"][0]) for r in requests]

    def _msg(self, x):
        return {"ok": True, "value": self.answer(x), "printed": f"called {x}"}

    def interpret(self, func, args, kwargs, msg):
        return msg["value"], []

    def call(self, func, *args, **kwargs):
        return self.call_full(func, *args, **kwargs)[0]

    def call_full(self, func, *args, **kwargs):
        self.singles += 1
        if args[0] == self.hang_at:
            if self.heard is not None:
                self.heard.spoiled = True
            raise Timeout(f"{func}() took too long")
        msg = self._msg(args[0])
        if self.heard is not None:
            self.heard.answered(request(func, args, kwargs), msg)
        self.printed = msg["printed"]
        return msg["value"], []


PLAN = plans.Plan(calls=[request("f", (1,), {})], key="k" * 64)


def shrinking(s):
    """A check that fails on the batch's answer (a replay stops there), then, live, looks for
    the smallest failing input one call at a time."""
    if s.call("f", 1) == 1:
        if current_mode() is not None:
            raise Fail("replayed: to be run live")
        bad = [x for x in (8, 4, 2) if s.call("f", x) != 2 * x]
        raise Fail(f"f({bad[-1]}) is wrong", 0.25)


def _run(fn, sub, store):
    with pytest.raises(Fail) as failed:
        plans.run_check(fn, sub, None, PLAN, None, (store, True))
    return failed.value, sub.printed


def test_a_kept_run_gives_the_same_fail_without_running_it_live(tmp_path):
    fn, ran = _counted(shrinking)
    first_sub = Sub()
    first, printed = _run(fn, first_sub, ShrinkStore(tmp_path))
    assert len(ran) == 2 and first_sub.singles == 3  # the replay, then the live run
    second_sub = Sub()
    second, again_printed = _run(fn, second_sub, ShrinkStore(tmp_path))  # from the disk, as another process
    assert len(ran) == 3 and second_sub.singles == 0 and second_sub.batches == 2  # no live run
    assert (second.message, second.fraction, second.outcome, again_printed) == \
           (first.message, first.fraction, first.outcome, printed) == \
           ("f(2) is wrong", 0.25, "failed", "called 2")


def test_other_answers_to_the_kept_calls_run_live(tmp_path):
    store = ShrinkStore(tmp_path)
    fn, ran = _counted(shrinking)
    a, _ = _run(fn, Sub(), store)
    other = Sub(lambda x: 2 * x if x == 2 else x)  # the same answer to the batch, not to every live call
    b, _ = _run(fn, other, store)
    assert len(ran) == 4 and other.singles == 3 and other.batches == 2
    assert (a.message, b.message) == ("f(2) is wrong", "f(4) is wrong")
    assert _run(fn, Sub(lambda x: 2 * x if x == 2 else x), store)[0].message == "f(4) is wrong"
    assert len(ran) == 5  # that one kept too


def test_a_run_in_which_a_call_hung_is_not_kept(tmp_path):
    store = ShrinkStore(tmp_path)

    def hangs(s):
        if s.call("f", 1) == 1 and current_mode() is None:
            try:
                s.call("f", 7)
            except Timeout as exc:
                raise Fail(str(exc)) from None
        raise Fail("replayed: to be run live")
    fn, ran = _counted(hangs)
    for _ in range(2):
        _run(fn, Sub(hang_at=7), store)
    assert len(ran) == 4 and not list(tmp_path.iterdir()) and not store.memory


def test_a_run_decided_at_a_bound_is_not_kept(tmp_path):
    store = ShrinkStore(tmp_path)

    def bound(s):
        s.call("f", 1)
        remember.bound_met()
        raise Fail("undecided at the bound")
    fn, ran = _counted(bound)
    for _ in range(2):
        _run(fn, Sub(), store)
    assert len(ran) == 4 and not store.memory


def test_a_kept_file_under_another_name_or_altered_is_no_run(tmp_path):
    fn, ran = _counted(shrinking)
    _run(fn, Sub(), ShrinkStore(tmp_path))
    (kept,) = tmp_path.glob("*.json")
    name = kept.stem
    assert ShrinkStore(tmp_path).load(name, True) is not None
    assert ShrinkStore(tmp_path).load(name, False) is None  # the disk not allowed: memory only
    other = "f" * len(name)
    kept.rename(tmp_path / f"{other}.json")  # copied to stand for other answers
    assert ShrinkStore(tmp_path).load(other, True) is None
    for text in ("not json", "[]", '{"key": "%s"}' % other, '{"key": "%s", "calls": 1}' % other):
        (tmp_path / f"{other}.json").write_text(text)
        assert ShrinkStore(tmp_path).load(other, True) is None


# ------------------------------------------------------------------ whole files, with the real sandbox
def counting_hits(monkeypatch) -> list:
    """A list that gets an item each time a kept run is the grade (plans.py's ``reproduce``)."""
    hits, real = [], shrinks.reproduce

    def counted(sub, kept):
        try:
            real(sub, kept)
        except Fail:
            hits.append(True)
            raise
    monkeypatch.setattr(plans, "reproduce", counted)
    return hits


@pytest.mark.parametrize("slug, source", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_kept_runs_give_the_grades_reached_live(slug, source, tmp_path, monkeypatch):
    path = submit(tmp_path, slug, source)
    patch_caches(monkeypatch, shrinks=ShrinkStore(None))  # memory only: nothing kept before
    live = grade_file(slug, path)
    store = ShrinkStore(None)
    patch_caches(monkeypatch, shrinks=store)
    first = grade_file(slug, path)
    hits = counting_hits(monkeypatch)
    again = grade_file(slug, path)
    assert view(first) == view(live) and view(again) == view(live)
    failed = sum(c.points < c.max_points for c in live.checks)
    assert len(hits) == len(store.memory) <= failed


@pytest.mark.parametrize("slug", [e.slug for e in registry.EXERCISES])
def test_a_class_of_mistakes_graded_in_turn_gets_the_grades_reached_live(slug, tmp_path, monkeypatch):
    """Every mutant and alternative of an exercise, graded one after another with one store (as a
    batch's job process grades a class): each gets exactly its grade without any kept run."""
    from graders.grading import engine

    files = sample(slug, mutants=None, alternatives=None)
    for i, p in enumerate(files):
        for kind in ("", "-again", "-third"):
            (tmp_path / f"{i}{kind}").mkdir()
    real = engine.run_check
    monkeypatch.setattr(engine, "run_check", lambda fn, sub, ref, plan, passes=None, shrinks=None:
                        real(fn, sub, ref, plan, passes, None))
    live = {p: view(grade_file(slug, submit(tmp_path / f"{i}", slug, p))) for i, p in enumerate(files)}
    monkeypatch.setattr(engine, "run_check", real)
    store = ShrinkStore(None)
    patch_caches(monkeypatch, shrinks=store)
    hits = counting_hits(monkeypatch)
    keeping = []
    store.keep = lambda *args, real=store.keep: (keeping.append(True), real(*args))
    kept_by = []
    for i, p in enumerate(files):
        before = len(keeping)
        assert view(grade_file(slug, submit(tmp_path / f"{i}-again", slug, p))) == live[p], p.name
        if len(keeping) > before:
            kept_by.append((i, p))
    assert hits or kept_by  # a class of mistakes either repeats an answer or leaves a run to repeat
    hits.clear()
    for i, p in kept_by[:3]:  # graded again: their own kept runs at least
        assert view(grade_file(slug, submit(tmp_path / f"{i}-third", slug, p))) == live[p], p.name
    assert len(hits) >= min(3, len(kept_by))
