"""The grader decides, never the worker: a file that rewrites the worker's module scores
exactly what its honest twin scores.

Each file in tests/hostile/rewrite_worker/ makes a mistake that one check catches (it changes
an argument in place) or leans on a library's ValueError for a required one, and rewrites the
worker's module (``sys.modules["_attn_worker"]``: ``mutated``, ``snapshot``,
``_raised_by_a_raise_in``, ``describe_exception``) where the decision was once made. Its honest
twin is the same file without the lines from ``# BEGIN REWRITE`` to ``# END REWRITE``. Every
check must score the same for both, with the same outcome.

(The worker is the student's process once their code runs, so a file can still make it report
what some honest function would, one that puts its input back after the call, say: "What it
cannot stop" in docs/isolation.md. What it can no longer do is have the grader's decision made there.)
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from graders.grading.engine import grade_file
from graders.kit.checks import Fail, Raised
from graders.kit.raises import advise, expect_raises
from graders.sandbox import wire
from graders.sandbox.inside import worker
from graders.sandbox.submission import interpret, request

HERE = Path(__file__).parent
HOSTILE = HERE / "hostile" / "rewrite_worker"
ALTERNATIVES = HERE / "alternatives"
SLUGS = sorted(p.stem for p in HOSTILE.glob("*.py"))
# The check each file's mistake must lose, in both files: the rewrite must not buy it back.
LOSES = {"softmax": "leaves its input unchanged and returns a new array", "attention": "attention leaves Q, K, V and the mask unchanged",
         "multi_head": "leaves its inputs unchanged", "worked_example": "leaves raw unchanged and returns a new array"}


def twin(source: str) -> str:
    """``source`` without its rewrite of the worker."""
    lines = source.splitlines(keepends=True)
    begin = next(i for i, line in enumerate(lines) if line.startswith("# BEGIN REWRITE"))
    end = next(i for i, line in enumerate(lines) if line.startswith("# END REWRITE"))
    return "".join(lines[:begin] + lines[end + 1:])


def _graded(tmp_path, who, slug, source):
    folder = tmp_path / who
    folder.mkdir()
    (folder / f"{slug}.py").write_text(source, encoding="utf-8")
    result = grade_file(slug, folder / f"{slug}.py")
    assert not result.problem, result.problem
    return {c.name: (c.points, c.outcome) for c in result.checks}


def test_every_exercise_with_such_a_check_has_a_rewriting_file():
    assert SLUGS == sorted(LOSES)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_file_that_rewrites_the_worker_scores_what_its_honest_twin_scores(tmp_path, slug):
    source = (HOSTILE / f"{slug}.py").read_text(encoding="utf-8")
    assert "_attn_worker" in source and "_attn_worker" not in twin(source)
    rewriting, honest = _graded(tmp_path, "rewriting", slug, source), _graded(tmp_path, "honest", slug, twin(source))
    differ = {name: (rewriting[name], honest[name]) for name in honest if rewriting[name] != honest[name]}
    assert not differ, f"(the rewriting file, its honest twin) where they differ: {differ}"
    assert honest[LOSES[slug]] == (0.0, "failed")


FORGERIES = sorted((p.parent.name, p.stem) for p in (HERE / "hostile" / "forge_unchanged").glob("*/*.py"))


@pytest.mark.parametrize("technique, slug", FORGERIES)
def test_a_forged_report_of_the_arguments_changes_nothing(tmp_path, technique, slug):
    """Issue 35, finding 3: an in-place function that rewrote the worker's report of its arguments (by
    walking frames, through the garbage collector, by replacing a module's global) scored 10/10 instead
    of 9/10. The grader now reads the arguments itself from memory it shares (sandbox/arena.py)."""
    source = (HERE / "hostile" / "forge_unchanged" / technique / f"{slug}.py").read_text(encoding="utf-8")
    rewriting, honest = _graded(tmp_path, "rewriting", slug, source), _graded(tmp_path, "honest", slug, twin(source))
    differ = {name: (rewriting[name], honest[name]) for name in honest if rewriting[name] != honest[name]}
    assert not differ, f"(the rewriting file, its honest twin) where they differ: {differ}"
    assert honest[LOSES[slug]] == (0.0, "failed")
    assert sum(points for points, _ in honest.values()) > 0  # the rest of it is right


def test_a_required_exception_from_a_library_call_keeps_the_points_with_a_tip():
    result = grade_file("worked_example", ALTERNATIVES / "worked_example" / "head_dim_np_split.py")
    check = next(c for c in result.checks if c.name.startswith("head_dim raises ValueError"))
    assert (check.points, check.outcome) == (check.max_points, "passed")
    assert "That counts. A tip:" in check.message and "test whether n_heads divides d_model first" in check.message


# ------------------------------------------------------------------ what the worker reports: plain data
class Module:
    """Functions, as worker.call looks them up in a student's module."""

    def __init__(self, **functions):
        self.__dict__.update(functions)


def _answer(fn, *args, **kwargs):
    """The worker's answer to a call that asks for the arguments back (``call_full``'s)."""
    return worker.call(Module(f=fn), "<student>", copy.deepcopy(request("f", args, kwargs, after=True)))


def test_the_worker_reports_what_happened_and_decides_nothing():
    def clobber(x, y, n, mask=None):
        x[0] = 99
        return n

    x, y, mask = np.zeros(3), np.ones((2, 2)), np.eye(2, dtype=bool)
    answer = _answer(clobber, x, y, 4, mask=mask)
    assert set(answer) == {"ok", "value", "after", "poked", "earlier"}
    assert answer["after"]["args"][2] is None and set(answer["after"]["kwargs"]) == {"mask"}
    assert wire.decode(answer["after"]["args"][0]).tolist() == [99, 0, 0]  # as it was after the call
    assert answer["poked"] == answer["after"]  # data, the same kind: 4 holds no array to write into
    assert interpret("f.py", "f", (x, y, 4), {"mask": mask}, answer) == (4, [0])  # judged here, against x


def test_the_worker_reports_the_memory_a_result_holds_and_the_parent_judges_it():
    """A result that is an argument, or that the next call overwrites, shows in the data the worker
    sends back (the arguments while the result is written to; the earlier result, encoded again),
    and the parent decides from it against its own copies (wire.changes)."""
    kept = np.zeros(2)

    def same(x):
        return x

    def buffer(x):
        kept[...] = x * 2
        return kept

    def fresh(x):
        return x * 2

    x = np.array([1.0, 2.0])
    _, changed = interpret("f.py", "f", (x,), {}, _answer(same, x))
    assert changed == [] and changed.shared == [0]  # unchanged by the call; the result is x itself
    _, changed = interpret("f.py", "f", (x,), {}, _answer(fresh, x))
    assert changed.shared == []
    first, _ = interpret("f.py", "f", (x,), {}, _answer(buffer, x))
    _, changed = interpret("f.py", "f", (x + 1,), {}, _answer(buffer, x + 1))
    assert first.tolist() == [2.0, 4.0] and changed.earlier.tolist() == [4.0, 6.0]  # overwritten
    first, _ = interpret("f.py", "f", (x,), {}, _answer(fresh, x))
    _, changed = interpret("f.py", "f", (x + 1,), {}, _answer(fresh, x + 1))
    assert changed.earlier.tolist() == first.tolist()

    def fails(x):
        raise ValueError("no")

    error = _answer(fails, x)["error"]
    assert set(error) == {"type", "mro", "message", "where"}


def test_only_a_call_that_asks_gets_its_arguments_back():
    """``call`` does not ask (most calls: the wire stays as small as before), ``call_full`` does,
    and so does its recording, so that a replay asks as the recorded call did."""
    from graders.grading.plans import Recording

    plain = worker.call(Module(f=lambda x: 1), "<student>", copy.deepcopy(request("f", (np.zeros(3),), {})))
    assert set(plain) == {"ok", "value"}
    recording = Recording(Module(f=lambda x: x.fill(1)))
    assert recording.call("f", np.zeros(2)) is None and recording.call_full("f", np.zeros(2)) == (None, [0])
    assert [r.get("after") for r in recording.plan.calls] == [None, True]


@pytest.mark.parametrize("body, changed", [
    ("x += 1", ["x"]), ("x.resize((2, 1), refcheck=False)", ["x"]), ("pass", []),
    ("x[:] = x", []), ("m[0] = ~m[0]", ["m"]), ("z[...] = np.nan", ["z"])])
def test_the_parent_finds_each_changed_argument_itself(body, changed):
    namespace = {"np": np}
    exec(f"def f(x, z, m):\n    {body}\n    return 0\n", namespace)
    sent = {"x": np.array([1.5, np.nan]), "z": np.array(2.0), "m": np.array([True, False])}
    answer = _answer(namespace["f"], **sent)
    assert interpret("f.py", "f", (), sent, answer)[1] == changed
    assert sent["x"][0] == 1.5 and sent["m"][0]  # the parent's own copies are never touched


def _forged(meta):
    return {"args": [{"__nd__": meta}], "kwargs": {}}


@pytest.mark.parametrize("after", [
    None, 5, {"args": "x"}, {"args": []}, {"args": [None]}, {"args": [[0.0, 0.0]]},
    _forged({"dtype": "<f8", "kind": "f", "shape": [2 ** 40], "class": "numpy.ndarray", "b64": ""}),
    _forged({"dtype": "<f4", "kind": "f", "shape": [2], "class": "numpy.ndarray", "b64": "AAAAAAAAAAA="}),
    _forged({"dtype": "<f8", "kind": "f", "shape": [2], "class": "numpy.ndarray", "b64": "AAAA"}),
    _forged({"dtype": "<f8", "kind": "f", "shape": [2], "class": "numpy.ma.MaskedArray",
             "b64": "AAAAAAAAAAAAAAAAAAAAAA=="}),
    _forged({"dtype": "<f8", "kind": "f", "shape": [2], "class": "numpy.ndarray", "b64": "not base64!"}),
])
def test_an_argument_the_worker_does_not_report_as_sent_counts_as_changed(after):
    assert wire.changed((np.zeros(2),), {}, after) == [0]


def test_a_reported_argument_is_compared_only_where_the_parent_sent_an_array():
    same = worker.encode(np.zeros(2))  # as the worker encodes it
    after = {"args": [same, same, same] + [same] * 1000, "kwargs": {"other": same, "k": same}}
    assert wire.changed((np.zeros(2), 3, "s"), {"k": np.zeros(2), "n": None}, after) == []


# ------------------------------------------------------------------ what counts as a raise: decided here
class Raising:
    def __init__(self, kind, where=None, mro=("Exception",)):
        self.info = {"type": kind, "mro": [kind, *mro], "message": "m", "where": where}

    def call(self, func, *args):
        raise Raised(func, self.info)


def _expect(sub):
    return expect_raises(sub, "head_dim", (10, 3), exception="ValueError", reason="3 heads cannot split 10",
                         test="n_heads divides d_model", call="head_dim(10, 3)")


@pytest.mark.parametrize("where", [
    None, "line 3: raise ValueError('uneven')", "line 3: if d % h: raise ValueError('uneven')",
    "line 3: raise ValueError(f'{d} is not divisible by {h}: it',"])
def test_a_required_exception_from_a_raise_of_the_students_counts_without_a_tip(where):
    assert _expect(Raising("ValueError", where)) == ""


@pytest.mark.parametrize("where", [
    "line 7: heads = np.split(np.arange(d), h)  # raise? no, np.split raises", "line 7: x.reshape(n, h, -1)",
    "line 7: return helper(d, h, 'raise')"])
def test_a_required_exception_from_a_library_call_counts_with_a_tip(where):
    tip = _expect(Raising("ValueError", where))
    assert tip.startswith("head_dim(10, 3) raised ValueError (m) at " + where) and "That counts. A tip:" in tip
    with pytest.raises(Fail) as caught:
        advise(["", tip, "a later one"])
    assert (caught.value.fraction, caught.value.message) == (1.0, tip)
    advise(["", ""])  # nothing to say: a plain pass


def test_another_exception_or_a_result_still_fails():
    with pytest.raises(Fail, match="raised TypeError: m at line 2: x; raise ValueError instead"):
        _expect(Raising("TypeError", "line 2: x"))

    class Returns:
        def call(self, func, *args):
            return np.zeros(3)

    with pytest.raises(Fail, match=r"returned an array of shape \(3,\) instead of raising ValueError"):
        _expect(Returns())
    with pytest.raises(Raised):  # a stub's NotImplementedError is the stub's message, not this check's
        _expect(Raising("NotImplementedError", "line 2: raise NotImplementedError", mro=("RuntimeError",)))


def test_what_a_batch_answers_does_not_depend_on_what_ran_before_it():
    """A check's batch starts without an earlier result, so its answers (and the pass remembered by
    them, plans.pass_name) are the same whether another call_full ran before it or not."""
    req = copy.deepcopy(request("f", (np.array([1.0, 2.0]),), {}, after=True))
    parts = []
    modules = {"f.py": Module(f=lambda x: x * 2)}
    worker.call(modules["f.py"], "<student>", copy.deepcopy(req))  # something ran before
    worker.handle("/nowhere", modules, {"op": "batch", "file": "f.py", "calls": [req]}, parts.append)
    alone = []
    worker._EARLIER.clear()
    worker.handle("/nowhere", modules, {"op": "batch", "file": "f.py", "calls": [req]}, alone.append)
    assert parts == alone and parts[0]["answer"]["earlier"] is None


def test_learning_about_memory_never_fails_the_call():
    """A result the worker cannot poke or read again costs the call nothing: the call answered."""
    class Odd(np.ndarray):
        def __setitem__(self, key, value):
            raise MemoryError("no room")

    answer = _answer(lambda x: np.zeros(2).view(Odd), np.zeros(2))
    assert answer["ok"] and answer["poked"] is None


def test_an_int_too_large_for_a_float_is_a_named_failure():
    from graders.kit.numbers import as_float, real

    with pytest.raises(Fail, match="too large for a float"):
        as_float("f()", 10 ** 400)
    assert real(10 ** 400) != real(10 ** 400)  # NaN


def test_the_worker_and_the_parent_bound_an_answers_array_alike():
    """The worker pokes no array larger than an answer may carry; wire.py rejects those: one bound."""
    assert worker.MAX_ELEMENTS == wire.MAX_ELEMENTS
