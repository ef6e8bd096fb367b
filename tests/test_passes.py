"""Replays that passed, remembered by the answers they got (graders/grading/plans.py, Passes):
a remembered pass gives exactly the grade a fresh run gives, and nothing else is remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from cases import cases, submit, view
from graders.grading import engine, plans
from graders.grading.engine import ROOT, grade_file
from graders.grading.plancache import PassStore
from graders.kit import remember
from graders.kit.checks import Fail
from graders.kit.equality import TimeUp, time_limit
from graders.sandbox.submission import request
from support.caches import patch_caches

HERE = Path(__file__).parent
CASES = cases(mutants=3, alternatives=2)


# ------------------------------------------------------------------ run_check, with a stand-in worker
class Sub:
    """A worker stand-in: answers every call with ``value``, counting the batches and single calls."""

    def __init__(self, value=1):
        self.value, self.batches, self.singles, self.printed = value, 0, 0, ""

    def batch(self, requests):
        self.batches += 1
        return [{"ok": True, "value": self.value} for _ in requests]

    def interpret(self, func, args, kwargs, msg):
        return msg["value"], []

    def call(self, func, *args, **kwargs):
        return self.call_full(func, *args, **kwargs)[0]

    def call_full(self, func, *args, **kwargs):
        self.singles += 1
        return self.value, []


PLAN = plans.Plan(calls=[request("f", (1,), {})], key="k" * 64)


def _check(body):
    ran = []

    def fn(sub, ref):
        ran.append(True)
        body(sub)
    return fn, ran


def test_a_pass_is_remembered_and_not_run_again(tmp_path):
    store, sub = PassStore(tmp_path), Sub()
    fn, ran = _check(lambda s: s.call("f", 1))
    plans.run_check(fn, sub, None, PLAN, store)
    plans.run_check(fn, sub, None, PLAN, store)
    assert len(ran) == 1 and sub.batches == 2  # the answers are still asked for, each time
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_other_answers_are_not_the_remembered_pass(tmp_path):
    store = PassStore(tmp_path)
    fn, ran = _check(lambda s: s.call("f", 1))
    plans.run_check(fn, Sub(1), None, PLAN, store)
    plans.run_check(fn, Sub(1.0), None, PLAN, store)  # equal, but another answer
    assert len(ran) == 2


def test_with_and_without_the_reference_are_two_passes(tmp_path):
    store = PassStore(tmp_path)
    fn, ran = _check(lambda s: s.call("f", 1))
    plans.run_check(fn, Sub(), None, PLAN, store)
    plans.run_check(fn, Sub(), object(), PLAN, store)
    assert len(ran) == 2


def test_a_failure_is_never_remembered(tmp_path):
    def fails(s):
        s.call("f", 1)
        raise Fail("no")
    store = PassStore(tmp_path)
    fn, ran = _check(fails)
    for _ in range(2):
        with pytest.raises(Fail):
            plans.run_check(fn, Sub(), None, PLAN, store)
    assert len(ran) == 4 and not list(tmp_path.iterdir())  # replayed, then live, twice


def test_a_pass_that_took_a_live_call_is_not_remembered(tmp_path):
    store, sub = PassStore(tmp_path), Sub()
    fn, ran = _check(lambda s: (s.call("f", 1), s.call("g")))  # g() is not in the plan
    plans.run_check(fn, sub, None, PLAN, store)
    plans.run_check(fn, sub, None, PLAN, store)
    assert len(ran) == 2 and sub.singles == 2 and not list(tmp_path.iterdir())


def test_a_pass_decided_at_a_bound_is_not_remembered(tmp_path):
    store = PassStore(tmp_path)
    fn, ran = _check(lambda s: (s.call("f", 1), remember.bound_met()))
    plans.run_check(fn, Sub(), None, PLAN, store)
    plans.run_check(fn, Sub(), None, PLAN, store)
    assert len(ran) == 2 and not list(tmp_path.iterdir())


def test_a_time_limit_that_fires_is_a_bound_met():
    with remember.noting_bounds() as met:
        with time_limit(0.01):
            with pytest.raises(TimeUp):
                while True:
                    pass
    assert met
    with remember.noting_bounds() as met:
        with time_limit(5.0):
            pass
    assert not met


def test_a_file_under_another_plans_name_holds_no_pass(tmp_path):
    store = PassStore(tmp_path)
    assert store.add("a" * 64, "n1") and store.has("a" * 64, "n1")
    (tmp_path / f"{'a' * 64}.json").rename(tmp_path / f"{'b' * 64}.json")  # copied to pass another check
    assert not store.has("b" * 64, "n1") and not store.has("a" * 64, "n1")


def test_a_plan_keeps_its_last_passes_only(tmp_path):
    store = PassStore(tmp_path)
    for i in range(PassStore.KEEP + 2):
        store.add("p" * 64, f"n{i}")
    store.add("p" * 64, f"n{PassStore.KEEP + 1}")  # again: not kept twice
    assert [store.has("p" * 64, f"n{i}") for i in range(PassStore.KEEP + 2)] == [False] * 2 + [True] * PassStore.KEEP
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_garbage_in_a_pass_file_is_no_pass(tmp_path):
    store = PassStore(tmp_path)
    for text in ("not json", '{"key": 1}', '{"key": "%s", "passes": "n1"}' % ("q" * 64), "[]"):
        (tmp_path / f"{'q' * 64}.json").write_text(text)
        assert not store.has("q" * 64, "n1")


# ------------------------------------------------------------------ whole files, with the real sandbox
@pytest.fixture
def passes(tmp_path, monkeypatch):
    kept = PassStore(tmp_path / "passes")
    patch_caches(monkeypatch, passes=kept)
    return kept


def _counting_replays(monkeypatch) -> list:
    made = []
    real = plans.Replay

    def counted(*args):
        made.append(True)
        return real(*args)
    monkeypatch.setattr(plans, "Replay", counted)
    return made


@pytest.mark.parametrize("slug, source", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_remembered_passes_give_the_grades_reached_afresh(slug, source, passes, tmp_path, monkeypatch):
    path = submit(tmp_path, slug, source)
    fresh = grade_file(slug, path)
    kept = len(list(passes.folder.glob("*.json"))) if passes.folder.exists() else 0
    made = _counting_replays(monkeypatch)
    again = grade_file(slug, path)
    assert view(again) == view(fresh)
    passed = sum(c.outcome == "passed" for c in fresh.checks)
    assert kept <= passed and (kept > 0 or passed == 0)
    assert len(made) <= 2 * (len(fresh.checks) - kept)  # the remembered passes were not replayed


def test_a_changed_plan_finds_no_pass(passes, tmp_path, monkeypatch):
    path = submit(tmp_path, "softmax", ROOT / "solutions" / "softmax.py")
    grade_file("softmax", path)
    kept = len(list(passes.folder.glob("*.json")))
    patch_caches(monkeypatch, plans=plans.Plans(engine.caches().plans.store))
    real = plans.plan_key
    monkeypatch.setattr(plans, "plan_key", lambda *a: real(*a)[::-1])  # a grader edited, as it were
    made = _counting_replays(monkeypatch)
    result = grade_file("softmax", path)
    assert result.points == result.max_points and len(made) == len(result.checks)
    assert len(list(passes.folder.glob("*.json"))) == 2 * kept


def test_no_pass_is_kept_where_the_sandbox_reaches(tmp_path, monkeypatch):
    path = submit(tmp_path, "softmax", ROOT / "solutions" / "softmax.py")
    inside = PassStore(path.parent / "cache" / "passes")
    patch_caches(monkeypatch, passes=inside)
    assert grade_file("softmax", path).points == 10
    assert not inside.folder.exists()


def test_a_time_limit_outside_a_main_thread_refuses_rather_than_bound_nothing():
    """SIGALRM reaches only a main thread: elsewhere the bound would silently be none."""
    import threading

    said = []

    def grade():
        try:
            with time_limit(0.01):
                said.append("ran unbounded")
        except RuntimeError as exc:
            said.append(str(exc))

    thread = threading.Thread(target=grade, name="dask-like")
    thread.start()
    thread.join()
    assert said and "only a main thread receives" in said[0] and "'dask-like'" in said[0], said
