"""The checks, run inside a Jupyter notebook: what the nbgrader test cells call.

    from attn_checks.grading.notebook import public_checks
    public_checks("softmax", globals())

They grade the notebook's answer cell, not whatever the kernel holds (answer.py):
a function written in another cell, or left over from an earlier run, is not
what the real grading sees, and a note says so when the kernel's definitions
differ from the answer cell's.

nbgrader runs a student's code and the test cells in one kernel, so here the
checks call the student's functions in this process (no sandbox: nbgrader's own
model; ``attn-grade grade`` is the hardened path). To score exactly as the
sandboxed grader does, every call goes through the worker's own code: the
arguments and the answer make the same wire round trip, the global random
states are reseeded before the call, and changed array arguments are noticed
in the same way.

nbgrader reads a test cell's score from the float it ends with and gives zero
to a cell that writes to stderr, so the report goes to stdout and nothing the
checks or the student's code print, warn or write to stderr gets out.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import sys
import tempfile
import warnings

from .. import registry
from ..kit.text import call_text
from .answer import answer_of, borrowed_names
from ..sandbox.inside import worker as wirefmt
from ..sandbox.submission import interpret, printed_tail, request
from .results import ExerciseResult

WHERE = "your answer cell"


class InProcess:
    """The ``sub`` a check sees in a notebook: the student's functions, called here
    (inside ``_silenced``, so that what they print stays out of the notebook)."""

    def __init__(self, namespace: dict):
        self.namespace = namespace
        self.module = _Names(namespace)
        self.printed = ""  # the last lines printed by the call answered last

    @property
    def functions(self) -> list:
        """Public callables, chosen as the worker chooses them when it imports a file."""
        return sorted(n for n, v in self.namespace.items() if callable(v) and not n.startswith("_"))

    def call(self, func, *args, **kwargs):
        return self.interpret(func, args, kwargs, self._answer(request(func, args, kwargs)))[0]

    def call_full(self, func, *args, **kwargs):
        req = request(func, args, kwargs, after=True)
        return self.interpret(func, args, kwargs, self._answer(req))

    def batch(self, requests, within=None):  # in this process: nothing to bound
        return [self._answer(req) for req in requests]

    def interpret(self, func, args, kwargs, msg):
        self.printed = printed_tail(msg.get("printed"))  # shown under a failed check, as the sandbox's are
        return interpret(WHERE, func, args, kwargs, msg, call_text)

    def _answer(self, req):
        """The worker's raw answer to one request (it decodes, reseeds, calls, encodes)."""
        code = getattr(self.namespace.get(req["func"]), "__code__", None)
        filename = code.co_filename if code is not None else WHERE  # so errors name the cell's line
        answer = wirefmt.call(self.module, filename, copy.deepcopy(req))
        if answer.get("error", {}).get("type") == "KeyboardInterrupt":
            raise KeyboardInterrupt  # the kernel was interrupted (by you, or nbgrader's time limit): stop
        return answer


class _Names:
    """A namespace dict seen as a module (what ``worker.call`` looks functions up in)."""

    def __init__(self, namespace):
        object.__setattr__(self, "_ns", namespace)

    def __getattr__(self, name):
        try:
            return self._ns[name]
        except KeyError:
            raise AttributeError(name) from None


@contextlib.contextmanager
def _silenced():
    """Swallow prints, warnings and writes to stderr (even at the file-descriptor level)."""
    sink = io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(sink))
        stack.enter_context(contextlib.redirect_stderr(sink))
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")
        stack.enter_context(_fd2_to_nowhere())
        yield sink


@contextlib.contextmanager
def _fd2_to_nowhere():
    """Point file descriptor 2 at a scratch file for a while (C code writes there directly)."""
    try:
        sys.__stderr__ and sys.__stderr__.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield  # no usable descriptor 2: nothing can reach it anyway
        return
    with tempfile.TemporaryFile() as scratch:
        os.dup2(scratch.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def public_checks(slug: str, namespace: dict) -> float:
    """Run the public checks of ``slug`` on the functions in ``namespace``; print the report;
    return the points earned (nbgrader's partial credit)."""
    return _checks(slug, namespace, hidden=False)


# ------------------------------------------------------------------ each student their own numbers
COURSE_FILE = "course.json"  # beside the package's own files, written by `attn-grade course build`
NO_ID = ("this course gives each student their own numbers: type your student id in the STUDENT_ID cell "
         "above (or open the notebook on your course's JupyterHub), run it, and work from the numbers "
         "it shows")


def course_varies() -> bool:
    """Whether the course these checks were built for gives each student their own numbers."""
    try:
        with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), COURSE_FILE), encoding="utf-8") as f:
            return json.load(f).get("variants") is True
    except (OSError, ValueError, AttributeError):
        return False


def student_of(namespace: dict) -> str | None:
    """The student's id: the notebook's STUDENT_ID, else JupyterHub's user name, else None."""
    typed = namespace.get("STUDENT_ID") if isinstance(namespace, dict) else None
    if isinstance(typed, str) and typed.strip():
        return typed.strip()
    return os.environ.get("JUPYTERHUB_USER", "").strip() or None


def notebook_variant(slug: str, namespace: dict) -> int:
    """The variant this notebook's checks use: the student's, in a course whose numbers vary."""
    from .folder import variant_of

    student = student_of(namespace) if course_varies() else None
    return variant_of(slug, student) if student else 0


def your_numbers(slug: str, namespace: dict) -> None:
    """Print the numbers the student works from in exercise ``slug``."""
    from .engine import numbers_text
    from ..terminal.wrap import NAMED_NUMBER, PAGE_WIDTH, wrap

    if slug not in registry.BY_SLUG:
        print(f"no exercise called {slug!r}")
        return
    student = student_of(namespace)
    if not course_varies():
        text = "In this course everyone works from the numbers in the text above."
    elif student is None:
        text = f"Not yet: {NO_ID}."
    else:
        variant = notebook_variant(slug, namespace)
        text = f"Your numbers ({student}, variant {variant}): {numbers_text(slug, variant)}."
    print("\n".join(wrap(text, 0, PAGE_WIDTH, hang=2, keep=NAMED_NUMBER)))


def hidden_checks(slug: str, namespace: dict) -> float:
    """Run the hidden checks of ``slug`` (they compare with the reference solution)."""
    return _checks(slug, namespace, hidden=True)


def _checks(slug, namespace, hidden):
    kind = "hidden" if hidden else "public"
    if slug not in registry.BY_SLUG:
        print(f"{kind} checks: no exercise called {slug!r}")
        return 0.0
    if not isinstance(namespace, dict):
        print(f"{kind} checks: pass globals() as the second argument")
        return 0.0
    from .engine import checks_of  # heavy (Hypothesis, SymPy): only once a test cell runs
    from ..terminal.wrap import PAGE_WIDTH, wrap
    from .report import render_text

    def say(text):  # a page, not a terminal: nbgrader's feedback and formgrader show these lines as they are
        print("\n".join(wrap(text, 0, PAGE_WIDTH, hang=2)))

    answer = answer_of(slug, namespace, _silenced)
    variant = notebook_variant(slug, namespace) if registry.get(slug).varies else 0
    result = grade_namespace(slug, answer.namespace, hidden=hidden, problem=answer.problem, variant=variant)
    print(render_text([result], totals=False, width=PAGE_WIDTH).rstrip())
    messages = [c.message for c in result.checks] + [answer.problem]
    for note in answer.notes + borrowed_names(messages, namespace, answer.namespace):
        say(f"Note: {note}.")
    uses = {u for fn in checks_of(slug) if fn.spec.hidden == hidden for u in fn.spec.uses}
    missing = sorted(uses - set(answer.namespace))
    if missing and answer.namespace is namespace:
        say(f"Not defined: {', '.join(missing)}. Run the answer cell first; if it stopped with an "
            f"error, what comes after the error was not defined.")
    elif missing and not answer.problem:
        say(f"Not defined in the answer cell: {', '.join(missing)}.")
    if registry.get(slug).varies and course_varies() and student_of(namespace) is None:
        say(f"Note: {NO_ID}; these checks used the numbers in the text.")
    print(f"{kind.capitalize()} checks of {slug}: {result.points:g}/{result.max_points:g} points")
    return float(result.points)


def grade_namespace(slug: str, namespace: dict, *, hidden: bool, problem: str = "",
                    variant: int = 0) -> ExerciseResult:
    """The public (or hidden) checks of ``slug`` on the functions in ``namespace``, as an ExerciseResult;
    with a ``problem`` (the answer cell could not run), every check at zero, saying why. ``variant``:
    the student's own numbers (kit/variants.py)."""
    from . import engine  # heavy (Hypothesis, SymPy): only once a test cell runs
    from ..kit import variants

    exercise = registry.get(slug)
    checks = [fn for fn in engine.checks_of(slug) if fn.spec.hidden == hidden]
    result = ExerciseResult(slug, exercise.title, problem=problem, variant=variant)
    ref = engine.reference(slug) if hidden else None
    if hidden and ref is None:
        result.problem = "the reference solution is not installed here; hidden checks run when your instructor grades"
    if result.problem:
        engine.zero_all(result, checks)
    else:
        sub = InProcess(namespace)
        functions = sub.functions
        with _silenced(), variants.active(variant):  # the checks themselves (Hypothesis, SymPy) must not print
            for fn in checks:
                result.checks.append(engine.grade_check(slug, fn, sub, ref, functions, WHERE))
    return result
