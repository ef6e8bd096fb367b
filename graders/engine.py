"""Grade one exercise file: run every check of its grader against it.

The student's file runs in a worker (graders/sandbox.py); the grader's checks
and the reference solution run here, in the trusted parent, on validated
plain data only.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from functools import lru_cache
from pathlib import Path

from graders import registry
from graders.checks import Fail
from graders.results import CheckResult, ExerciseResult
from graders.sandbox import StudentError, Submission

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"


def checks_of(slug: str) -> list:
    """The grader's checks in the order they are written in graders/<slug>.py."""
    module = importlib.import_module(f"graders.{slug}")
    found = [f for f in vars(module).values() if callable(f) and hasattr(f, "spec")]
    return sorted(found, key=lambda f: f.__code__.co_firstlineno)


@lru_cache(maxsize=None)
def reference(slug: str, solutions: Path = SOLUTIONS):
    """The reference solution, imported here (trusted), or None if not shipped."""
    path = Path(solutions) / f"{slug}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_reference_{slug}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grade_file(slug: str, path, *, hidden: bool = True, call_timeout: float = 10.0) -> ExerciseResult:
    """Grade ``path`` as exercise ``slug``. ``hidden=False`` runs only the public checks."""
    exercise = registry.get(slug)
    checks = [c for c in checks_of(slug) if hidden or not c.spec.hidden]
    ref = reference(slug) if hidden else None
    result = ExerciseResult(slug, exercise.title)
    start = time.perf_counter()
    path = Path(path)
    if not path.is_file():
        result.problem = f"{path.name} was not found in {path.parent}"
    else:
        with Submission(path, call_timeout=call_timeout) as sub:
            outcome = sub.start()
            if not outcome.ready:
                result.problem = outcome.message
            else:
                for fn in checks:
                    result.checks.append(_run(slug, fn, sub, ref, outcome.functions, path.name))
    if result.problem:
        result.checks = [_zero(slug, fn, f"not graded: {result.problem}") for fn in checks]
    result.seconds = time.perf_counter() - start
    return result


def _zero(slug, fn, message, outcome="failed"):
    s = fn.spec
    return CheckResult(slug, s.name, 0.0, s.points, outcome, message, "hidden" if s.hidden else "public")


def _run(slug, fn, sub, ref, functions, filename) -> CheckResult:
    s = fn.spec
    missing = [u for u in s.uses if u not in functions]
    if missing:
        return _zero(slug, fn, f"{', '.join(missing)} is not defined in {filename}")
    try:
        fn(sub, ref)
    except Fail as exc:
        points = round(s.points * max(0.0, min(1.0, exc.fraction)), 6)
        outcome = exc.outcome if exc.fraction < 1 else "passed"
        if 0 < exc.fraction < 1 and outcome == "failed":
            outcome = "partial"
        return CheckResult(slug, s.name, points, s.points, outcome, exc.message,
                           "hidden" if s.hidden else "public")
    except StudentError as exc:
        return _zero(slug, fn, str(exc))
    except Exception as exc:  # noqa: BLE001 - a bug in a grader must not sink the whole run
        return _zero(slug, fn, f"the grader itself failed on this check ({type(exc).__name__}: {exc}); "
                               f"this is not your fault, please report it", outcome="error")
    return CheckResult(slug, s.name, s.points, s.points, "passed", "", "hidden" if s.hidden else "public")


def grade_dir(directory, slugs=None, **kwargs) -> list:
    """Grade ``directory/<slug>.py`` for each slug (default: every exercise)."""
    slugs = slugs or [e.slug for e in registry.EXERCISES]
    return [grade_file(slug, Path(directory) / f"{slug}.py", **kwargs) for slug in slugs]
