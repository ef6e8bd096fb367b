"""The worker boundary: student code runs in another process, answers arrive
as validated plain data, and misbehaviour becomes a named error, not a crash
of the grader."""

import os
import textwrap

import numpy as np
import pytest

from graders.sandbox import wire
from graders.sandbox.errors import Crashed, Missing, Raised, Timeout
from graders.sandbox.submission import Submission


def student(tmp_path, source, name="softmax.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def started(path, **kw):
    sub = Submission(path, **kw)
    outcome = sub.start()
    return sub, outcome


def test_student_code_runs_in_another_process(tmp_path):
    path = student(tmp_path, "import os\ndef pid():\n    return os.getpid()\n")
    with Submission(path) as sub:
        assert sub.start().ready
        assert sub.call("pid") != os.getpid()


def test_arrays_cross_as_float64_and_come_back_equal(tmp_path):
    path = student(tmp_path, "def echo(x):\n    return x * 2\n")
    x = np.arange(6, dtype=np.float64).reshape(2, 3) / 7
    with Submission(path) as sub:
        sub.start()
        out = sub.call("echo", x)
    assert type(out) is np.ndarray and out.dtype == np.float64
    np.testing.assert_array_equal(out, x * 2)


def test_rng_argument_becomes_a_generator(tmp_path):
    path = student(tmp_path, "def draw(rng):\n    return float(rng.standard_normal())\n")
    with Submission(path) as sub:
        sub.start()
        assert sub.call("draw", wire.Rng(3)) == float(np.random.default_rng(3).standard_normal())


def test_modified_arguments_are_reported(tmp_path):
    path = student(tmp_path, "def clobber(x):\n    x[0] = 99\n    return x\n")
    with Submission(path) as sub:
        sub.start()
        _, changed = sub.call_full("clobber", np.zeros(3))
    assert changed == [0]


@pytest.mark.parametrize("body, reason", [
    ("np.array([1, None])", "dtype object"),
    ("np.array([1+2j])", "complex"),
    ("np.array(['a'])", "not numbers"),
    ("np.ma.masked_array([1.0])", "subclass of ndarray"),
    ("np.zeros(3_000_000)", "far larger than asked"),
    ("{'a': 1}", "type builtins.dict"),
])
def test_unusable_answers_are_rejected_with_a_reason(tmp_path, body, reason):
    path = student(tmp_path, f"import numpy as np\ndef f():\n    return {body}\n")
    with Submission(path) as sub:
        sub.start()
        out = sub.call("f")
    assert isinstance(out, wire.Rejected) and reason in out.reason


def test_exceptions_name_the_type_and_the_students_line(tmp_path):
    path = student(tmp_path, "def f(x):\n    raise ValueError('bad heads')\n")
    with Submission(path) as sub:
        sub.start()
        with pytest.raises(Raised) as info:
            sub.call("f", 3)
    assert info.value.is_a("ValueError") and info.value.is_a("Exception")
    assert str(info.value).startswith("Your code raised ValueError: bad heads\n  at line 2")
    assert str(info.value).endswith("when calling f(3)")


def test_a_missing_function_is_named(tmp_path):
    with Submission(student(tmp_path, "x = 1\n")) as sub:
        sub.start()
        with pytest.raises(Missing, match="softmax is not defined in softmax.py"):
            sub.call("softmax")


def test_an_endless_loop_times_out_and_the_worker_is_replaced(tmp_path):
    path = student(tmp_path, "def spin():\n    while True:\n        pass\ndef ok():\n    return 1\n")
    with Submission(path, call_timeout=0.5) as sub:
        sub.start()
        with pytest.raises(Timeout, match="timed out after 0.5 s"):
            sub.call("spin")
        assert sub.call("ok") == 1  # a fresh worker, the file imported again


@pytest.mark.parametrize("body", ["import os; os._exit(3)", "import sys; sys.exit(0)",
                                  "raise SystemExit(1)", "raise KeyboardInterrupt"])
def test_exits_in_a_call_are_reported(tmp_path, body):
    path = student(tmp_path, f"def f():\n    {body}\n")
    with Submission(path) as sub:
        sub.start()
        with pytest.raises((Crashed, Raised)):
            sub.call("f")


@pytest.mark.parametrize("source, words", [
    ("def f(:\n", "syntax error at line 1"),
    ("import sys\nsys.exit(2)\n", "raised SystemExit while being imported"),
    ("raise RuntimeError('boom')\n", "raised RuntimeError: boom"),
    ("import no_such_module_here\n", "ModuleNotFoundError"),
])
def test_import_problems_are_explained(tmp_path, source, words):
    _, outcome = started(student(tmp_path, source))
    assert not outcome.ready and words in outcome.message


def test_non_utf8_file_is_explained(tmp_path):
    path = tmp_path / "softmax.py"
    path.write_bytes(b"x = '\xff\xfe'\n")
    _, outcome = started(path)
    assert not outcome.ready and "softmax.py" in outcome.message


def test_an_import_that_hangs_times_out(tmp_path):
    sub, outcome = started(student(tmp_path, "while True:\n    pass\n"), import_timeout=0.5)
    assert not outcome.ready and "timed out" in outcome.message


def test_printing_floods_do_not_disturb_answers(tmp_path):
    path = student(tmp_path, "import sys\ndef f():\n    print('x' * 10**6)\n"
                             "    sys.stderr.write('{\"ok\": true}' * 1000)\n    return 41 + 1\n")
    with Submission(path) as sub:
        sub.start()
        assert sub.call("f") == 42
        assert len(sub.output) <= 2 * 8192


def test_writing_forged_answers_to_the_result_pipe_is_caught(tmp_path):
    # the forged message carries no matching id, so it is rejected, not believed
    path = student(tmp_path, """
        import json, os, struct
        def f():
            data = json.dumps({"ok": True, "value": 1.0, "id": 999}).encode()
            for fd in range(3, 64):
                try:
                    os.write(fd, struct.pack(">I", len(data)) + data)
                except OSError:
                    pass
            return 0.0
    """)
    with Submission(path) as sub:
        sub.start()
        with pytest.raises(Crashed, match="out of order"):
            sub.call("f")


def test_the_worker_does_not_see_pythonpath_or_the_project(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/somewhere/secret")
    path = student(tmp_path, "import os, sys\ndef env():\n    return os.environ.get('PYTHONPATH', '')\n"
                             "def path():\n    return '/somewhere/secret' in sys.path\n")
    with Submission(path) as sub:
        sub.start()
        assert sub.call("env") == "" and sub.call("path") is False


def test_the_grading_package_is_not_importable_in_the_worker(tmp_path):
    path = student(tmp_path, """
        def probe(name):
            try:
                __import__(name)
            except ImportError:
                return False
            return True
    """)
    with Submission(path) as sub:
        sub.start()
        assert sub.call("probe", "numpy") is True and sub.call("probe", "sympy") is True
        assert sub.call("probe", "graders") is False
        assert sub.call("probe", "solutions") is False


def test_long_texts_in_an_answer_are_refused_by_length():
    assert wire.decode("x" * 20_000) == "x" * 20_000
    assert wire.decode(["x" * 30_000]) == [wire.Rejected("a string of 30000 characters")]
    big = {"__sympy__": "Integer(1)" * 3_000, "class": "C" * 10_000}
    assert wire.decode(big) == wire.Rejected("a SymPy expression of 30000 characters")
    assert len(wire.decode({"__sympy__": "Integer(1)", "class": "C" * 10_000}).cls) < 300
    assert len(wire.decode({"__other__": "T" * 10**6}).reason) < 300
    with pytest.raises(wire.ProtocolError, match="characters of text"):
        wire.decode(["y" * 20_000] * 51)


def test_what_a_forged_worker_says_about_an_exception_is_cut_to_a_few_kilobytes(tmp_path):
    # the worker's own module is in sys.modules: code can replace how it describes exceptions
    path = student(tmp_path, """
        import sys
        w = sys.modules["_attn_worker"]
        w.describe_exception = lambda exc, filename: {
            "type": "T" * 10**6, "mro": ["M" * 10**5] * 100, "message": "\\u00e9" * 2 * 10**6,
            "where": "W" * 10**6}
        def f():
            raise ValueError("honest text")
    """)
    with Submission(path) as sub:
        assert sub.start().ready
        with pytest.raises(Raised) as info:
            sub.call("f")
    text = str(info.value)
    assert len(text) < 4_000 and "more characters" in text
    assert len(info.value.type_name) < 300 and len(info.value.mro) <= 64
    assert all(len(n) < 300 for n in info.value.mro) and len(info.value.info["message"]) < 2_100


def test_a_forged_import_error_is_cut_too(tmp_path):
    path = student(tmp_path, """
        import sys
        w = sys.modules["_attn_worker"]
        w.describe_exception = lambda exc, filename: {"type": "T" * 10**6, "message": "m" * 10**7}
        raise RuntimeError("boom")
    """)
    _, outcome = started(path)
    assert not outcome.ready and len(outcome.message) < 4_000 and "more characters" in outcome.message


SPIN_AT_THREE = """
def f(n):
    while n == 3:
        pass
    return n * 2
def g():
    return "g"
"""


def test_a_batch_answers_call_by_call_and_stops_at_the_one_that_hangs(tmp_path):
    from graders.sandbox.errors import BatchTimeout
    from graders.sandbox.submission import request

    with Submission(student(tmp_path, SPIN_AT_THREE), call_timeout=0.5) as sub:
        sub.start()
        calls = [request("f", (n,), {}) for n in (1, 2, 3, 4)]
        with pytest.raises(BatchTimeout) as caught:
            sub.batch(calls)
        assert [a["value"] for a in caught.value.answers] == [2, 4]  # the answers before the call that hung
        assert str(caught.value.call) == "timed out after 0.5 s while running f() (an endless loop?)"
        with pytest.raises(Timeout, match=r"f\(\) was not run again: it timed out earlier"):
            sub.call("f", 1)  # as after a single call that hung
        assert sub.call("g") == "g"  # the other functions, in a fresh worker
        assert [a["value"] for a in sub.batch([request("g", (), {})] * 3)] == ["g"] * 3


def test_a_batchs_answers_together_are_bounded_like_one_answer(tmp_path, monkeypatch):
    from graders.sandbox import sandbox as handle
    from graders.sandbox.submission import request

    monkeypatch.setattr(handle, "MAX_MESSAGE", 1 << 20)
    path = student(tmp_path, "def big():\n    return 'x' * 15_000\n")
    with Submission(path) as sub:
        sub.start()
        assert len(sub.batch([request("big", (), {})] * 20)) == 20  # about 300 KB in all
        with pytest.raises(Crashed, match="larger than any answer asked for"):
            sub.batch([request("big", (), {})] * 80)  # each part small, 1.2 MB together


def test_a_time_budget_bounds_a_batch_as_a_whole(tmp_path):
    """Each call under the call timeout, but the budget (grading/budget.py) is for all of them."""
    from graders.grading.budget import Budget, Budgeted
    from graders.sandbox.submission import request

    path = student(tmp_path, "import time\ndef slow(n):\n    time.sleep(0.4)\n    return n\n")
    with Submission(path, call_timeout=1.0) as sub:
        sub.start()
        budget = Budget(1.0, "one exercise file")
        with pytest.raises(Timeout) as caught:
            Budgeted(sub, budget).batch([request("slow", (n,), {}) for n in range(10)])
        assert str(caught.value) == budget.message()
