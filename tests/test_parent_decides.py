"""The grader decides, never the worker: which array arguments a call changed is decided in the
grading process, against its own copies of what it sent (graders/sandbox/wire.py, ``changed``);
the worker only reports them as they were after the call."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from graders.sandbox import wire, worker
from graders.sandbox.submission import interpret, request


# ------------------------------------------------------------------ what the worker reports: plain data
class Module:
    """Functions, as worker.call looks them up in a student's module."""

    def __init__(self, **functions):
        self.__dict__.update(functions)


def _answer(fn, *args, **kwargs):
    return worker.call(Module(f=fn), "<student>", copy.deepcopy(request("f", args, kwargs)))


def test_the_worker_reports_what_happened_and_decides_nothing():
    def clobber(x, y, n, mask=None):
        x[0] = 99
        return n

    x, y, mask = np.zeros(3), np.ones((2, 2)), np.eye(2, dtype=bool)
    answer = _answer(clobber, x, y, 4, mask=mask)
    assert set(answer) == {"ok", "value", "after"}
    assert answer["after"]["args"][2] is None and set(answer["after"]["kwargs"]) == {"mask"}
    assert wire.decode(answer["after"]["args"][0]).tolist() == [99, 0, 0]  # as it was after the call
    assert interpret("f.py", "f", (x, y, 4), {"mask": mask}, answer) == (4, [0])  # judged here, against x

    def fails(x):
        raise ValueError("no")

    assert _answer(fails, x)["error"]["type"] == "ValueError"


@pytest.mark.parametrize("body, changed", [
    ("x += 1", ["x"]), ("x.shape = (1, 2)", ["x"]), ("x.dtype = np.int64", ["x"]), ("pass", []),
    ("x[:] = x", []), ("m[0] = ~m[0]", ["m"]), ("z[...] = np.nan", ["z"]), ("", [])])
def test_the_parent_finds_each_changed_argument_itself(body, changed):
    namespace = {"np": np}
    exec(f"def f(x, z, m):\n    {body or 'pass'}\n    return 0\n", namespace)
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
