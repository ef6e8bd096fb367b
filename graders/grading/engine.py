"""Grade one exercise file: run every check of its grader against it.

The student's file runs in a worker (graders/sandbox/); the grader's checks
and the reference solution run here, in the trusted parent, on validated
plain data only.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .. import registry
from ..kit import remember, variants
from ..kit.checks import Fail, submission_of
from ..kit.outcomes import Outcome
from ..kit.text import call_text
from ..sandbox.errors import StudentError
from ..sandbox.sandbox import Sandbox
from ..sandbox.submission import Submission
from ..sandbox.zygote import SandboxFailed
from .behaviour import observing
from .budget import Budget, Budgeted
from .plancache import ExpectedStore, PassStore, PlanStore, VerdictStore, hidden_from, usable
from .plans import Plans, run_check
from .shrinks import ShrinkStore
from .results import CheckResult, ExerciseResult, bounded

PACKAGE = Path(__file__).resolve().parents[1]  # graders/ (attn_checks/ in what students get)
ROOT = PACKAGE.parent
SOLUTIONS = ROOT / "solutions"
GRADERS = __package__.rpartition(".")[0]  # the package's own name: graders, or attn_checks


def checks_of(slug: str, hidden: bool = True) -> list:
    """The public checks of graders/<slug>.py, then (with ``hidden``) those of
    graders/hidden/<slug>.py, each in the order they are written. A copy of the
    package without hidden/ (what students get) simply has public checks only."""
    found = _checks_in(f"{GRADERS}.{slug}")
    # Only a hidden/ folder inside this package counts: an editable install's import hook
    # would otherwise find the project's hidden checks from a student's copy.
    if hidden and (PACKAGE / "hidden").is_dir():
        try:
            found += _checks_in(f"{GRADERS}.hidden.{slug}")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"{GRADERS}.hidden", f"{GRADERS}.hidden.{slug}"):
                raise
    return found


def numbers_text(slug: str, variant: int) -> str:
    """The numbers of exercise ``slug`` in ``variant`` (kit/variants.py), as its grader words them:
    a grader whose numbers vary has ``numbers(variant)``; others always have the exercise's own."""
    numbers = getattr(importlib.import_module(f"{GRADERS}.{slug}"), "numbers", None)
    return numbers(variant).text() if numbers is not None else "the numbers in the exercise's text"


def points_of(slug: str) -> tuple:
    """(public, hidden) points of an exercise: what each kind of check is worth."""
    checks = checks_of(slug)
    return (sum(c.spec.points for c in checks if not c.spec.hidden),
            sum(c.spec.points for c in checks if c.spec.hidden))


def _checks_in(name: str) -> list:
    module = importlib.import_module(name)
    found = [f for f in vars(module).values()
             if callable(f) and hasattr(f, "spec") and f.__module__ == module.__name__]
    return sorted(found, key=lambda f: f.__code__.co_firstlineno)


def warm(slugs) -> None:
    """Import now what grading these exercises imports at its first file: their graders and
    reference solutions, Hypothesis and SymPy. The batch calls it once before it forks its job
    processes, so that each finds them imported instead of importing them again (about 1.5 s a
    process). Nothing a grade depends on is made here: plans are still read or recorded by each
    grading, against its own sandbox (``_execute``)."""
    from ..bounded.helper import warm_here
    from ..kit import lazy

    for slug in slugs:
        checks_of(slug)
        ref = reference(slug)
        if ref is not None:
            getattr(ref, registry.get(slug).functions[0], None)  # the proxy imports the solution
    lazy.ready()
    lazy.load(lazy.module("sympy"))
    warm_here()  # the exact-answer helper's warm-up (SymPy's caches filled), which each job's helper inherits


@lru_cache(maxsize=None)
def reference(slug: str, solutions: Path = SOLUTIONS):
    """The reference solution (a Reference), or None if not shipped."""
    path = Path(solutions) / f"{slug}.py"
    return Reference(slug, path) if path.is_file() else None


class Reference:
    """A reference solution, imported here (trusted) at the first use of one of its names.

    A check whose pass is remembered (plans.py) needs only the file's path, for the
    plan's key; importing the solutions of the exact exercises would import SymPy."""

    def __init__(self, slug: str, path: Path):
        self.__file__, self._slug, self._module = str(path), slug, None

    def __getattr__(self, name):  # only names the proxy itself lacks: the solution's
        if name.startswith("_"):  # copy, pickle and the like ask for these before __init__ has run
            raise AttributeError(name)
        if self._module is None:
            spec = importlib.util.spec_from_file_location(f"_reference_{self._slug}", self.__file__)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self._module = module
        return getattr(self._module, name)


def grade_file(slug: str, path, *, hidden: bool = True, call_timeout: float = 10.0, sandbox: Sandbox | None = None,
               replay: bool = True, budget: Budget | None = None, cached: Caches | None = None,
               observe: bool = False, variant: int = 0) -> ExerciseResult:
    """Grade ``path`` as exercise ``slug``. ``hidden=False`` runs only the public checks.

    ``sandbox``: the Sandbox serving the file's folder, shared by a student's
    exercises (it starts a fresh process for each file, so one file cannot
    change another's grade); by default a private one.
    ``replay=False`` runs every check live (plans.py explains replay).
    ``budget``: wall time for all the file's calls (budget.py); the checks left
    when it is spent score zero, saying so.
    ``cached``: what grading remembers across files (``caches``); by default in memory only.
    ``observe``: also keep what the file's answers do (behaviour.py) in ``result.behaviour``.
    ``variant``: the student's own numbers (kit/variants.py; 0, the seed's, by default).
    """
    cached = cached or caches()
    exercise = registry.get(slug)
    checks = checks_of(slug, hidden)
    ref = reference(slug) if hidden else None
    result = ExerciseResult(slug, exercise.title, variant=variant)
    start = time.perf_counter()
    path = Path(path)
    if path.is_symlink():
        result.problem = f"{path.name} is a symbolic link; submit the file itself"
    elif not path.is_file():
        result.problem = f"{path.name} was not found in the folder {path.absolute().parent.name}/"
        result.missing = True
    else:
        with Submission(path, call_timeout=call_timeout, sandbox=sandbox,
                        import_timeout=import_timeout(call_timeout), describe=call_text) as sub:
            imported = sub.start()
            if not imported.ready:
                result.problem = imported.message
            else:
                verdicts, expected = cached.verdicts, cached.expected  # never where its sandbox reaches
                kept = expected if hidden_from(sub, expected.folder) else None
                with remember.using(verdicts if hidden_from(sub, verdicts.folder) else None), \
                        variants.active(variant), observing(ref, variant, kept) if observe else nullcontext() as seen:
                    result.checks = _run_checks(slug, checks, sub, budget, ref, imported.functions, replay, cached)
                result.behaviour = seen.result(result.checks) if seen is not None else None
    if result.problem:
        zero_all(result, checks)
    result.seconds = time.perf_counter() - start
    return bounded(result)


def _run_checks(slug, checks, sub, budget, ref, functions, replay, cached) -> list:
    calls = Budgeted(sub, budget) if budget is not None else sub
    results = []
    for fn in checks:
        if budget is not None and budget.spent:
            results.append(_zero(slug, fn, budget.message()))
            continue
        results.append(grade_check(slug, fn, calls, ref, functions, sub.path.name, replay, cached))
    return results


def import_timeout(call_timeout: float) -> float:
    """Time allowed to import a file: NumPy and SymPy are already loaded, so little is needed."""
    return max(2 * call_timeout, 5.0)


def zero_all(result: ExerciseResult, checks) -> ExerciseResult:
    """Every one of ``checks`` at zero, saying why nothing was graded (``result.problem``)."""
    result.checks = [_zero(result.exercise, fn, f"not graded: {result.problem}") for fn in checks]
    return result


def ungraded(slug: str, problem: str, missing: bool = False) -> ExerciseResult:
    """Every check of ``slug`` at zero: there was no answer to grade, and ``problem`` says why."""
    result = ExerciseResult(slug, registry.get(slug).title, problem=problem, missing=missing)
    return bounded(zero_all(result, checks_of(slug)))


def with_notes(result: ExerciseResult, notes) -> ExerciseResult:
    """Notes on how the answer was read, as checks worth nothing, so every report shows them."""
    for note in notes:
        result.checks.append(CheckResult(result.exercise, "notebook: how it was read", 0.0, 0.0,
                                         Outcome.PASSED, note, "public"))
    return result


def with_printed(check: CheckResult, printed: str) -> CheckResult:
    """A failed check's message, followed by the last lines the failing call printed."""
    if check.passed or not printed:
        return check
    shown = "\n".join(f"  | {line}" for line in printed.splitlines())
    return replace(check, message=f"{check.message}\nyour code printed (last lines of that call):\n{shown}")


def _zero(slug, fn, message, outcome=Outcome.FAILED):
    s = fn.spec
    return CheckResult(slug, s.name, 0.0, s.points, outcome, message, "hidden" if s.hidden else "public")


def _near_misses(missing, functions) -> str:
    """The file's functions whose names are close to a missing one ("soft_max" for "softmax")."""
    near = [(m, c[0]) for m in missing for c in [difflib.get_close_matches(m, functions, n=1, cutoff=0.75)] if c]
    return "".join(f"; it defines {found}: the checks call {name}, so name it that" for name, found in near)


def grade_check(slug, fn, sub, ref, functions, filename, replay=True, cached=None) -> CheckResult:
    """One check's result: ``functions`` are those the file defines (named in ``filename``).
    A failed check's message ends with what the failing call printed (``with_printed``)."""
    owner = submission_of(sub)  # the Submission (or notebook) that keeps what a call printed
    owner.printed = ""
    return with_printed(_check_result(slug, fn, sub, ref, functions, filename, replay, cached or caches()),
                        owner.printed)


def _check_result(slug, fn, sub, ref, functions, filename, replay, cached) -> CheckResult:
    s = fn.spec
    missing = [u for u in s.uses if u not in functions]
    if missing:
        return _zero(slug, fn, f"{', '.join(missing)} is not defined in {filename}{_near_misses(missing, functions)}")
    try:
        _execute(slug, fn, sub, ref, replay, cached)
    except Fail as exc:
        points = round(s.points * max(0.0, min(1.0, exc.fraction)), 6)
        outcome = exc.outcome if exc.fraction < 1 else Outcome.PASSED
        if 0 < exc.fraction < 1 and outcome == Outcome.FAILED:
            outcome = Outcome.PARTIAL
        return CheckResult(slug, s.name, points, s.points, outcome, exc.message,
                           "hidden" if s.hidden else "public")
    except StudentError as exc:
        return _zero(slug, fn, str(exc))
    except SandboxFailed:  # no sandbox: nothing can be graded here, by anyone; never the student's zero
        raise
    except Exception as exc:  # noqa: BLE001 - a bug in a grader must not sink the whole run
        return _zero(slug, fn, f"the grader itself failed on this check ({type(exc).__name__}: {exc}); "
                               f"this is not your fault, please report it", outcome=Outcome.ERROR)
    return CheckResult(slug, s.name, s.points, s.points, Outcome.PASSED, "", "hidden" if s.hidden else "public")


@dataclass(frozen=True)
class Caches:
    """What grading remembers across files (plancache.py): recorded checks (in memory, and on
    disk where no sandbox can see them), settled verdicts on exact answers (kit/remember.py),
    replays that passed, by the answers they got (plans.py, ``pass_name``), live runs that
    failed, by the same answers and those of their live calls (shrinks.py), and the reference's
    answers to each plan's calls as the class report compares them (behaviour.py)."""

    plans: Plans
    verdicts: VerdictStore
    passes: PassStore
    shrinks: ShrinkStore
    expected: ExpectedStore


@lru_cache(maxsize=None)
def caches(folder: Path | None = None) -> Caches:
    """The caches kept in ``folder`` (a Settings' ``plans``; verdicts/ and passes/ beside it),
    one per folder and process, so that every file graded here reuses what the others
    recorded; with no folder (or one a sandbox could see), plans in memory only."""
    folder = usable(folder)
    return Caches(Plans(PlanStore(folder)), VerdictStore(folder and folder.parent / "verdicts"),
                  PassStore(folder and folder.parent / "passes"), ShrinkStore(folder and folder.parent / "shrinks"),
                  ExpectedStore(folder and folder.parent / "expected"))


def _execute(slug, fn, sub, ref, replay, cached):
    """Run one check: replayed from its recording when there is one, else live.
    The recording is made against the reference even when the check itself gets none
    (public checks only); without a reference, only a shipped recording can be had."""
    plan = None
    if replay:
        recorder = ref if ref is not None else reference(slug)
        solution = Path(recorder.__file__) if recorder is not None else None
        plan = cached.plans.get(fn, recorder, solution=solution, disk=hidden_from(sub, cached.plans.store.folder))
    run_check(fn, sub, ref, plan, cached.passes if replay and hidden_from(sub, cached.passes.folder) else None,
              (cached.shrinks, hidden_from(sub, cached.shrinks.folder)) if replay else None)
