"""Plans kept on disk (graders/grading/plancache.py): the same grades, never a stale plan,
out of every sandbox's sight."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from graders import registry
from graders.classroom.release.public import copy_public
from cases import cases, view
from graders.grading import engine, plancache, planfile, plans
from graders.grading.engine import ROOT, checks_of, grade_file, reference
from graders.grading.plancache import PlanStore, plan_key
from graders.grading.planfile import decode, encode
from graders.sandbox.submission import Submission
from graders.grading.settings import Settings
from support.caches import patch_caches

HERE = Path(__file__).parent


def _same(a, b) -> bool:
    """Equal in type and value all the way down (arrays: dtype, shape and bytes)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


def test_every_recorded_plan_survives_the_trip_through_json():
    for e in registry.EXERCISES:
        ref = reference(e.slug)
        for fn in checks_of(e.slug):
            plan = plans.run_recorded(fn, ref)
            key = plan_key(fn.__module__, fn.__qualname__, Path(ref.__file__))
            back = planfile.plan_from_json(json.loads(json.dumps(planfile.plan_to_json(plan, key))), key)
            assert (plan is None) == (back is None), fn.__qualname__
            if plan is not None:
                assert _same(plan.calls, back[0]) and _same(plan.examples, back[1]), fn.__qualname__


@pytest.mark.parametrize("value", [
    -0.0, float("inf"), float("nan"), 2**70, True, None, "x", (1, (2.5, [3])), {"a": (1,), 2: None},
    np.arange(6, dtype=np.int64).reshape(2, 3), np.zeros((0, 3)), np.array([True, False]),
    np.float64(0.1), np.bool_(True)])
def test_values_keep_their_exact_type(value):
    assert _same(value, decode(json.loads(json.dumps(encode(value)))))


def test_what_the_format_does_not_know_is_not_stored(tmp_path):
    class Odd:
        pass

    plan = plans.Plan(calls=[], examples={(str(engine.PACKAGE / "softmax.py"), 1, 0): [Odd()]})
    assert PlanStore(tmp_path).save("k", plan) is False and not list(tmp_path.iterdir())


CASES = cases(mutants=2)


@pytest.fixture
def fresh_plans(tmp_path, monkeypatch):
    """The engine's plans with an empty store in tmp_path; ``again()`` forgets what is in memory."""
    store = PlanStore(tmp_path / "plans", shipped=None)

    def again():
        patch_caches(monkeypatch, plans=plans.Plans(store))
        return store

    again()
    return again


@pytest.mark.parametrize("slug, path", CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_cached_grades_equal_live_grades(slug, path, fresh_plans, monkeypatch):
    live = grade_file(slug, path, replay=False)
    recorded = grade_file(slug, path)  # records, stores
    store = fresh_plans()  # a new process, as it were: nothing in memory

    def no_recording(fn, ref):
        raise AssertionError(f"{fn.__qualname__} was recorded again: its plan should come from disk")

    monkeypatch.setattr(plans, "run_recorded", no_recording)
    cached = grade_file(slug, path)
    assert view(live) == view(recorded) == view(cached)
    assert len(list(store.folder.glob("*.json"))) == len(checks_of(slug))


def test_an_altered_plan_file_is_recorded_again(fresh_plans):
    store = fresh_plans()
    path = ROOT / "solutions" / "softmax.py"
    before = view(grade_file("softmax", path))
    for f in store.folder.glob("*.json"):
        f.write_text('{"format": 1, "key": "not this one", "plan": null}')
    store = fresh_plans()
    assert view(grade_file("softmax", path)) == before
    assert all(json.loads(f.read_text())["key"] == f.stem for f in store.folder.glob("*.json"))


def test_stored_inputs_that_do_not_decode_are_graded_live(fresh_plans, tmp_path, monkeypatch):
    store = fresh_plans()
    path = HERE / "mutants" / "softmax" / "no_max_shift.py"
    before = view(grade_file("softmax", path))
    altered = 0
    for f in store.folder.glob("*.json"):
        data = json.loads(f.read_text())
        if data["plan"] and data["plan"]["examples"]:
            data["plan"]["examples"][0][0] = ["../outside.py", 1]  # decoded only when replayed
            f.write_text(json.dumps(data))
            altered += 1
    assert altered
    fresh_plans()
    patch_caches(monkeypatch, passes=plancache.PassStore(tmp_path / "no-passes-yet"))
    assert view(grade_file("softmax", path)) == before


def test_the_key_covers_grader_kit_sandbox_solution_and_versions(tmp_path, monkeypatch, request):
    for cached in (plancache._sources_digest, plancache._versions):  # never left holding this test's copy
        request.addfinalizer(cached.cache_clear)
    copy = copy_public(tmp_path, "graders")
    solution = tmp_path / "softmax.py"
    solution.write_text((ROOT / "solutions" / "softmax.py").read_text())
    monkeypatch.setattr(plancache, "PACKAGE", copy)

    def key():
        plancache._sources_digest.cache_clear()
        plancache._versions.cache_clear()
        return plan_key("graders.softmax", "sums_to_one", solution)

    seen = [key()]
    for rel in ("softmax.py", "kit/props.py", "sandbox/wire.py", "grading/plans.py"):
        with open(copy / rel, "a") as f:
            f.write("\n# changed\n")
        seen.append(key())
    with open(solution, "a") as f:
        f.write("\n# changed\n")
    seen.append(key())
    monkeypatch.setattr(plancache, "installed", lambda dist: "0.0-other")
    seen.append(key())
    assert len(set(seen)) == len(seen)
    assert plan_key("graders.softmax", "sums_to_one", None) != seen[-1]  # shipped plans: their own keys
    plancache._sources_digest.cache_clear()
    plancache._versions.cache_clear()


SMALL_GRADER = '''
import numpy as np
from hypothesis import strategies as st
from .kit.checks import as_array, check, expect
from .kit.props import for_all


@check("weights sum to 1", 1, uses=("softmax",))
def sums(sub, ref):
    def prop(n):
        w = as_array("softmax(z)", sub.call("softmax", np.zeros(n)))
        expect(abs(w.sum() - 1) < 1e-9, f"called softmax(np.zeros({n})); the weights sum to {w.sum():g}")
    for_all(st.integers(1, LARGEST), prop, max_examples=20)
'''
SHORT_ONLY = "import numpy as np\ndef softmax(z, axis=-1):\n    return np.full(z.shape, 1 / z.size) if z.size <= 3 else z\n"
RUN = """
import json, sys
from pathlib import Path
from attn_checks.grading.engine import caches, grade_file
from attn_checks.grading.settings import Settings
r = grade_file("softmax", Path(sys.argv[1]), cached=caches(Settings.from_environ().plans))
print(json.dumps([r.points, r.checks[0].message]))
"""


def test_a_changed_grader_never_replays_an_old_plan(tmp_path):
    """The stored plan of the old grader would pass a wrong answer the new grader fails."""
    copy = copy_public(tmp_path, "attn_checks")
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "softmax.py").write_text((ROOT / "solutions" / "softmax.py").read_text())
    student = tmp_path / "work" / "softmax.py"
    student.parent.mkdir()
    student.write_text(SHORT_ONLY)
    env = {**os.environ, "ATTN_GRADE_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}

    def grade(largest):
        (copy / "softmax.py").write_text(SMALL_GRADER.replace("LARGEST", str(largest)))
        out = subprocess.run([sys.executable, "-c", RUN, str(student)], env=env, capture_output=True,
                             text=True, check=True, cwd=tmp_path).stdout
        return json.loads(out)

    assert grade(3) == [1.0, ""]  # recorded with inputs of size 1 to 3: the short-only softmax passes
    stored = set((tmp_path / "cache" / "plans").glob("*.json"))
    points, message = grade(30)
    assert points == 0.0 and "the weights sum to" in message
    assert len(set((tmp_path / "cache" / "plans").glob("*.json")) - stored) == 1


def test_no_sandbox_sees_the_plan_cache(tmp_path, monkeypatch):
    folder = Settings.from_environ().plans  # this run's (conftest.py)
    assert plancache.usable(folder) == folder
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.delenv("ATTN_GRADE_CACHE")
    home = Settings.from_environ().plans.parents[1]  # the default: ~/.cache/attn-grade/plans
    path = tmp_path / "probe.py"
    path.write_text(textwrap.dedent("""
        import os
        def look(folder):
            try:
                os.listdir(folder)
                seen = True
            except OSError:
                seen = False
            try:
                open(os.path.join(folder, "planted.json"), "w").close()
                wrote = True
            except OSError:
                wrote = False
            return [seen, wrote, os.path.exists(folder)]
    """))
    with Submission(path) as sub:
        outcome = sub.start()
        assert outcome.ready and plancache.hidden_from(sub, folder)
        assert sub.call("look", str(folder)) == [False, False, False]
        assert sub.call("look", str(home))[::2] == [False, False]
    assert not (folder / "planted.json").exists()


def test_a_cache_a_sandbox_could_see_is_refused(tmp_path):
    site = Path(np.__file__).parent.parent
    assert plancache.usable(site / "attn-grade") is None
    assert plancache.usable(Path("/usr/share/attn-grade")) is None
    assert plancache.usable(tmp_path / "exercises" / ".cache", [tmp_path / "exercises"]) is None
    assert plancache.usable(tmp_path / "cache", [tmp_path / "exercises"]) == tmp_path / "cache"


def test_the_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTN_GRADE_CACHE", "off")
    assert Settings.from_environ().plans is None
    monkeypatch.setenv("ATTN_GRADE_CACHE", str(tmp_path / "c"))
    assert Settings.from_environ().plans == tmp_path / "c" / "plans"


SHIPPED = """
import json, sys
from pathlib import Path
from attn_checks import registry
from attn_checks.grading import engine
found = sorted(f"{e.slug}.{fn.__qualname__}" for e in registry.EXERCISES for fn in engine.checks_of(e.slug)
               if engine.caches().plans.get(fn, None) is not None)
views = [[[c.name, c.points, c.outcome, c.message] for c in engine.grade_file(slug, Path(path)).checks]
         for slug, path in json.loads(sys.argv[1])]
print(json.dumps({"found": found, "views": views}))
"""


def test_a_students_copy_replays_the_shipped_plans_and_grades_as_live(tmp_path):
    """attn_checks/ (and the bundle's graders/) carry the public checks' plans: with no
    reference and no cache, every public check that passes on the reference replays, and
    the grades are those of a live run of the public checks."""
    copy_public(tmp_path, "attn_checks")
    cases = [(s, str(p)) for s, p in CASES if s in ("softmax", "attention", "hand_scores")]
    env = {**os.environ, "ATTN_GRADE_CACHE": "off", "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", SHIPPED, json.dumps(cases)], env=env, capture_output=True,
                         text=True, check=True, cwd=tmp_path).stdout
    got = json.loads(out)
    expected = sorted(f"{e.slug}.{fn.__qualname__}" for e in registry.EXERCISES
                      for fn in checks_of(e.slug, hidden=False) if plans.run_recorded(fn, reference(e.slug)))
    assert got["found"] == expected and len(expected) > 30
    live = [[list(v) for v in view(grade_file(s, Path(p), hidden=False, replay=False))] for s, p in cases]
    assert got["views"] == live


def test_a_batch_grading_within_budgets_keeps_its_plans_and_passes(tmp_path):
    """The batch grades within time budgets (a Budgeted wraps the submission): the plans it records
    and the replays that pass are kept on disk all the same, so the next job process, and the next
    run, replays instead of recording again. (It once asked the wrapper, not the submission inside,
    whether the cache was out of the sandbox's sight, and kept nothing.)"""
    from graders.grading.folder import Folder

    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "softmax.py").write_text((ROOT / "solutions" / "softmax.py").read_text())
    cache = tmp_path / "cache" / "plans"
    for _ in range(2):
        with Folder(folder, plans=cache) as graded:
            [result] = graded.grade_all(["softmax"], file_budget=60.0, student_budget=240.0)
        assert result.points == result.max_points
    recorded = {plan_key(fn.__module__, fn.__qualname__, ROOT / "solutions" / "softmax.py")
                for fn in checks_of("softmax")}
    assert {p.stem for p in cache.glob("*.json")} >= recorded
    passes = engine.caches(cache).passes.folder  # this test's own (conftest.py)
    assert len(list(passes.glob("*.json"))) == len(recorded)


def test_the_references_tokens_are_kept_beside_the_plans_and_read_back_alike(tmp_path, monkeypatch):
    """What the class report compares a file's answers with (behaviour.py: the reference's answers to
    each plan's calls) is computed once and kept in expected/; a later grading reads it instead of
    running the reference again and observes exactly the same, and a file that is not that plan's
    is computed again."""
    from graders.grading import behaviour
    from graders.grading.folder import Folder

    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "softmax.py").write_text((ROOT / "tests" / "mutants" / "softmax" / "default_axis0.py").read_text())
    cache = tmp_path / "cache" / "plans"

    def observed():
        monkeypatch.setattr(behaviour, "_reference_tokens", {})  # a new job process
        with Folder(folder, plans=cache, observe=True) as graded:
            [result] = graded.grade_all(["softmax"])
        return result.behaviour

    first = observed()
    kept = sorted((tmp_path / "cache" / "expected").glob("*.json"))
    assert first["differ"] and len(kept) >= 2
    real_call = behaviour.wirefmt.call
    monkeypatch.setattr(behaviour.wirefmt, "call", lambda *a: pytest.fail("the reference ran again"))
    assert observed() == first
    data = json.loads(kept[0].read_text())
    kept[0].write_text(json.dumps({"key": "another plan", "tokens": data["tokens"]}))
    calls = []
    monkeypatch.setattr(behaviour.wirefmt, "call", lambda *a: calls.append(1) or real_call(*a))
    assert observed() == first and calls
