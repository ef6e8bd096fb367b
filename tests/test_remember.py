"""Settled verdicts on exact answers, kept on disk (graders/kit/remember.py): the same grades,
never a stale verdict, never one a sandbox could have written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cases import cases, submit, view
from graders.grading import engine
from graders.grading.engine import ROOT, grade_file
from graders.grading.plancache import PassStore, VerdictStore
from graders.kit import exact, remember
from graders.bounded import helper as bounded
from support.caches import patch_caches

HERE = Path(__file__).parent
EXACT = ("hand_scores", "variance_proof")
CASES = cases(mutants=None, alternatives=None, slugs=EXACT)


@pytest.fixture
def store(tmp_path, monkeypatch):
    """An empty store of this test's own; the memos in memory are emptied by ``forget()``."""
    kept = VerdictStore(tmp_path / "verdicts")
    patch_caches(monkeypatch, verdicts=kept, passes=PassStore(None))  # every check runs: its verdicts are asked for
    kept.forget = lambda: (exact._READ.clear(), exact._VERDICTS.clear())
    kept.forget()
    yield kept
    kept.forget()


def _no_jobs(monkeypatch):
    def refuse(fn, args=(), **kw):
        raise AssertionError(f"{fn.__name__} ran: its verdict should have come from the store")
    monkeypatch.setattr(bounded, "run", refuse)


@pytest.mark.parametrize("slug, source", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_kept_verdicts_give_the_grades_reached_afresh(slug, source, store, tmp_path, monkeypatch):
    path = submit(tmp_path, slug, source)
    live = grade_file(slug, path)
    assert list(store.folder.glob("*.json")), "nothing was kept"
    store.forget()  # a new process, as it were
    _no_jobs(monkeypatch)
    assert view(grade_file(slug, path)) == view(live)


def test_a_changed_deciding_source_finds_nothing_kept(store, tmp_path, monkeypatch):
    path = submit(tmp_path, "hand_scores", ROOT / "solutions" / "hand_scores.py")
    grade_file("hand_scores", path)
    kept = len(list(store.folder.glob("*.json")))
    store.forget()
    monkeypatch.setattr(remember, "deciders", lambda: "exact.py as edited")
    before = grade_file("hand_scores", path)
    assert len(list(store.folder.glob("*.json"))) == 2 * kept  # all reached again, under new names
    assert before.points == before.max_points


def test_an_unreadable_or_forged_shape_is_ignored_and_reached_afresh(store, tmp_path):
    path = submit(tmp_path, "hand_scores", HERE / "mutants" / "hand_scores" / "no_scaling.py")
    live = view(grade_file("hand_scores", path))
    files = sorted(store.folder.glob("*.json"))
    for i, f in enumerate(files):  # garbage, and values that are not a verdict or a reason
        f.write_text(["not json", json.dumps({"value": [2.0, "x", "passed", False]}),
                      json.dumps({"value": 5}), json.dumps({"nothing": 1})][i % 4])
    store.forget()
    assert view(grade_file("hand_scores", path)) == live


def test_an_undecided_or_bounded_verdict_is_not_kept(store, tmp_path, monkeypatch):
    monkeypatch.setattr(bounded, "run", lambda fn, args=(), **kw: bounded.JobResult(False, why="time"))
    path = submit(tmp_path, "hand_scores", ROOT / "solutions" / "hand_scores.py")
    result = grade_file("hand_scores", path)
    assert result.points < result.max_points  # every text answer was past a bound
    assert not store.folder.exists() or not list(store.folder.glob("*.json"))


@pytest.mark.parametrize("timed", [True, False])
def test_a_verdict_reached_at_a_time_bound_is_not_kept(timed, store, tmp_path, monkeypatch):
    real = bounded.run

    def run(fn, args=(), **kw):  # every comparison "failed", reached at a time bound or not
        return bounded.JobResult(True, [0.0, "not right", "failed", timed]) if fn is exact._compare_job else real(fn, args, **kw)

    monkeypatch.setattr(bounded, "run", run)
    path = submit(tmp_path, "hand_scores", ROOT / "solutions" / "hand_scores.py")
    assert grade_file("hand_scores", path).points < 8
    kept = [json.loads(f.read_text())["value"] for f in store.folder.glob("*.json")]
    compared = [v for v in kept if isinstance(v, list)]
    assert kept and all(v == "" or isinstance(v, list) for v in kept)  # reads ("") are always kept
    assert compared == [] if timed else compared and all(v[2] == "failed" for v in compared)


def test_nothing_is_kept_where_the_sandbox_could_reach_it(store, tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "hidden_from", lambda sub, folder: False)
    path = submit(tmp_path, "hand_scores", ROOT / "solutions" / "hand_scores.py")
    result = grade_file("hand_scores", path)
    assert result.points == result.max_points
    assert not store.folder.exists()


def test_names_that_are_not_digests_are_refused(store):
    assert store.put("../escape", "{}") is False and store.get("../escape") is None
    assert not (store.folder.parent / "escape.json").exists()


def test_a_verdict_under_another_name_is_not_taken(store, tmp_path):
    path = submit(tmp_path, "hand_scores", HERE / "mutants" / "hand_scores" / "no_scaling.py")
    live = view(grade_file("hand_scores", path))
    files = sorted(store.folder.glob("*.json"))
    texts = [f.read_text() for f in files]
    for f, text in zip(files, texts[1:] + texts[:1]):  # every file holds another's verdict
        f.write_text(text)
    store.forget()
    assert view(grade_file("hand_scores", path)) == live


def test_the_deciders_name_sympy_and_mpmath():
    assert "sympy " in remember.deciders() and "mpmath " in remember.deciders()
