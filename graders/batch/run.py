"""Grade a class: ``run(Options(SUBMISSIONS, OUT))``, the work of ``attn-grade grade``.

How SUBMISSIONS is laid out is a ``Layout``. ``FOLDERS``, the default, is one
folder per student with any subset of the exercise files (``<slug>.py``);
nbgrader's submitted/ folder is another (graders/classroom/nbgrader/nbsubmit.py), which
extracts the answer cells to OUT/.sources/<student>/<slug>.py first. For each
student this writes OUT/students/<student>/results.json (Gradescope's shape,
an ``exercise`` key on every test) and at the end OUT/gradebook.csv
(outfolder/outfiles.py). Both are written atomically; students whose results.json
already exists are kept (resume after an interruption) unless ``force``.

Grading runs in ``jobs`` processes. Each grades a student's files in one
sandboxed worker (graders/sandbox/) whose scratch folder is the layout's jail
root (SUBMISSIONS itself, or OUT/.sources), so the other students' files are
not there, within time budgets for each file and for the student (budget.py).
``assignments`` and ``students`` narrow a run: then results.json, the gradebook
and the summary hold those assignments' exercises only. A student is graded
again whenever anything their result depends on has changed (digest.py).
A job process that dies (killed, out of memory) is noticed: the students it
may have been grading are graded again, each alone in a fresh job process, and
one whose grading dies again gets "grading crashed" while the batch goes on.
With ``cluster`` the same tasks go to Dask workers instead (cluster.py).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

from .. import registry
from ..grading import engine
from ..terminal.wrap import fit_lines
from .digest import student_digest
from ..outfolder.outfiles import gradebook_text, remove_torn_files, results_path, stored, student_id, write_atomic
from .preflight import NoSandbox, preflight  # noqa: F401 - NoSandbox: part of what run() raises
from .summary import summary
from .tls import INSECURE, scheme


@dataclass(frozen=True)
class Options:
    submissions: Path
    out: Path
    jobs: int = os.cpu_count() or 1
    timeout: float = 10.0  # wall seconds for one call of a student's function
    memory_mb: int = 1024
    force: bool = False
    progress: bool = True
    file_budget: float = 60.0  # wall seconds for all the calls of one exercise file
    student_budget: float = 240.0  # wall seconds for all of one student's files
    assignments: tuple = ()  # grade these assignments' exercises only (default: the layout's choice)
    students: tuple = ()  # grade these students only (ids or folder names; default: all)
    allow_unisolated: bool = False  # grade even where the sandbox cannot isolate students (see preflight)
    plans: Path | None = None  # the plan cache's folder (a Settings' ``plans``); None: in memory only
    cluster: str = ""  # grade on Dask: "local:N" or a scheduler's address (cluster.py); "": the pool
    tls: tuple = ()  # (ca file, certificate, key) for a tls:// scheduler (tls.py); (): Dask's configuration
    insecure_cluster: bool = False  # allow a plain tcp:// scheduler; every results.json says so (tls.py)
    variants: bool = False  # each student their own numbers where an exercise varies (kit/variants.py)


class BatchError(ValueError):
    """The run cannot start as asked (an unknown student, OUT holding another selection)."""


@dataclass(frozen=True)
class Layout:
    """How SUBMISSIONS is laid out, and how to read it."""

    name: str  # "folders", "nbgrader", ...
    description: str  # for the summary: what was read, and how
    # read(opts, exercises) -> (students as (name, folder, problems, notes, also), jail root, skipped lines);
    # ``also``: what else a student's grade depends on, for the digest (a notebook's proof cell, say)
    read: Callable
    present: Callable = None  # present(opts) -> the assignments handed in, the default selection


def discover(submissions: Path):
    """(students as (name, folder), skipped entries with reasons), sorted by name."""
    students, skipped = [], []
    for entry in sorted(os.scandir(submissions), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            skipped.append(f"{student_id(entry.name)}: a symbolic link, not a folder")
        elif entry.is_dir():
            students.append((entry.name, Path(entry.path)))
        else:
            skipped.append(f"{student_id(entry.name)}: not a folder (each student needs a folder of <slug>.py files)")
    return students, skipped


def _read_folders(opts: Options, exercises):
    found, skipped = discover(opts.submissions)
    return [(n, f, {}, {}, {}) for n, f in found], opts.submissions, skipped


FOLDERS = Layout("folders", "one folder of <slug>.py files per student", _read_folders)


@dataclass(frozen=True)
class Task:
    """One student to grade, as a job process receives it."""

    name: str  # the student's id (outfiles.student_id)
    folder: str
    root: str  # the jail's scratch root
    opts: Options
    problems: dict  # slug -> (message, missing): handed in without an answer to grade
    notes: dict  # slug -> notes for the feedback
    exercises: tuple  # the slugs to grade
    digest: str  # what the result depends on (digest.py)
    isolation: dict = None  # the protections of the run's sandboxes, for results.json (preflight)
    mark: str = ""  # a file the job creates when it starts this task


def _warm(exercises) -> None:
    """engine.warm, quietly: what fails to import here fails again where a file is graded, and says so there."""
    try:
        engine.warm(exercises)
    except Exception:  # noqa: BLE001 - a grader that cannot be imported is reported with each file
        pass


def _job_zygotes(n: int) -> list:
    """A connection to the preflight's zygote for each of ``n`` job processes, SymPy loaded (the
    job processes then start no zygote of their own: Python, NumPy and SymPy once per batch, not
    once per job); [] if it cannot (each job then starts its own)."""
    from ..sandbox.zygote import ZygoteError, shared

    if n < 1:
        return []
    try:
        shared().load_sympy()
        return shared().hand_out(n)
    except ZygoteError:
        return []


# ------------------------------------------------------------------ in a job process
def _job_init(ends=(), claims=None):
    from ..sandbox import zygote
    from ..sandbox.inside.confine import die_with_parent

    die_with_parent()  # die with the batch
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    mine = None
    if ends:  # one connection each to the batch's zygote (_job_zygotes); the others' are closed here
        with claims.get_lock():
            i, claims.value = claims.value, claims.value + 1
        for j, end in enumerate(ends):
            if j == i:
                mine = end
            else:
                end.close()
    zygote.adopt(mine)


def grade_student(task: Task):
    """Grade one student's folder; return (name, results.json text, facts for the summary)."""
    if task.mark:
        os.close(os.open(task.mark, os.O_CREAT | os.O_WRONLY, 0o600))  # "started", for the parent
    from ..grading.folder import Folder

    opts, start = task.opts, time.perf_counter()
    # the sandbox takes what the digest was made of: the exercise files first
    with Folder(task.folder, timeout=opts.timeout, plans=opts.plans, scratch=task.root, memory_mb=opts.memory_mb,
                first=exercise_files(task.exercises), observe=True,
                student=task.name if opts.variants else None) as folder:
        results = folder.grade_all(task.exercises, problems=task.problems, notes=task.notes,
                                   file_budget=opts.file_budget, student_budget=opts.student_budget)
        sandbox = folder.report.as_dict()  # {} where no sandbox was started (nothing handed in)
    facts = {
        "scores": {r.exercise: r.points for r in results},
        "full": {r.exercise: r.points >= r.max_points for r in results},
        "missing": [r.exercise for r in results if r.missing],
        "errors": [f"{r.exercise}: {r.problem}" for r in results if r.problem and not r.missing],
        "sandbox": sandbox,
        "seconds": time.perf_counter() - start,
    }
    return task.name, _results_text(task, results), facts


def _results_text(task: Task, results) -> str:
    from ..grading.results import to_gradescope, variants_of

    data = to_gradescope(results)
    data["extra_data"] = {"digest": task.digest, "exercises": list(task.exercises), "isolation": task.isolation,
                          "behaviour": {r.exercise: r.behaviour for r in results if r.behaviour},
                          **({"insecure_cluster": INSECURE} if insecure(task.opts) else {}),
                          **({"variants": variants_of(results)} if task.opts.variants else {})}
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def insecure(opts: Options) -> bool:
    """Whether the class is graded through a plain tcp:// scheduler (tls.py): results.json and the summary say so."""
    return bool(opts.cluster) and scheme(opts.cluster) == "tcp"


def died(times: int) -> str:
    """Why a student whose grading process died ``times`` times is scored zero."""
    return f"the process grading your work ended abruptly, {'twice' if times == 2 else f'{times} times'} " \
           f"(killed, or out of memory)"


def crashed(task: Task, why: str):
    """What a student gets whose grading could not finish: every exercise at zero, saying why."""
    from ..grading.engine import ungraded

    problem = f"grading crashed: {why}; ask your instructor to grade your work again"
    results = [ungraded(slug, problem) for slug in task.exercises]
    facts = {"scores": dict.fromkeys(task.exercises, 0.0), "full": dict.fromkeys(task.exercises, False),
             "missing": [], "errors": [problem], "sandbox": {}, "seconds": 0.0}
    return task.name, _results_text(replace(task, digest=""), results), facts  # no digest: graded again


# ------------------------------------------------------------------ the batch
def run(opts: Options, say=print, layout: Layout = FOLDERS) -> dict:
    """Grade everything; return facts about each student graded in this run."""
    remove_torn_files(opts.out)
    exercises = exercises_of(opts, layout)
    everyone, root, skipped = layout.read(opts, exercises)
    found = _chosen(everyone, opts.students)
    _check_selection(opts, exercises)
    for line in skipped:
        say(f"skipped {line}")
    # the imports every job process needs, made once here while the preflight waits for its probe
    warming = threading.Thread(target=_warm, args=(exercises,), daemon=True)
    if found and not opts.cluster:
        warming.start()
    bar = None
    try:  # the preflight's zygote is closed however the run ends, the preflight's own refusals too
        box = preflight(opts, say, keep=not opts.cluster) if found else {}
        settings = {"timeout": opts.timeout, "memory_mb": opts.memory_mb, "file_budget": opts.file_budget,
                    "student_budget": opts.student_budget, "exercises": exercises, "isolated": box.get("isolated"),
                    **({"variants": True} if opts.variants else {}),
                    **({"insecure_cluster": True} if insecure(opts) else {})}  # graded again once it is secure
        tasks = [Task(student_id(n), str(f), str(root), opts, problems, notes, exercises,
                      student_digest(f, settings, problems, notes, exercise_files(exercises), also),
                      box.get("isolation")) for n, f, problems, notes, also in found]
        todo = [t for t in tasks if opts.force or stored(opts.out, t.name).get("digest") != t.digest]
        if len(tasks) > len(todo):
            say(f"{len(tasks) - len(todo)} student(s) already graded in {opts.out} from the same files, graders "
                f"and settings: kept (use --force to grade them again)")
        facts = {}
        bar = _progress(len(todo), opts.progress)

        def done(name, text, fact):
            write_atomic(results_path(opts.out, name), text)
            facts[name] = fact
            bar.update(1)

        if opts.cluster:
            from .cluster import Batch, grade_all

            grade_all(todo, opts, box.get("isolation"), done, Batch(grade_student, crashed, died, exercise_files))
        else:
            ends = _job_zygotes(min(opts.jobs, len(todo))) if found else []
            if warming.is_alive():
                warming.join()  # before any fork: a job process must not inherit a half-made import
            _grade_all(todo, opts.jobs, done, ends)
    finally:
        if bar is not None:
            bar.close()
        if found and not opts.cluster:
            from ..sandbox.zygote import shared

            shared().close()  # the preflight's, which the job processes shared
    handed_in = {student_id(entry[0]) for entry in everyone}
    book = [n for n in _graded(opts.out) if n in handed_in]
    write_atomic(opts.out / "gradebook.csv", gradebook_text(opts.out, book, exercises))
    say(fit_lines(summary(opts.out, book, facts, layout.description, exercises, opts.variants)))  # long lines
    return facts


def exercise_files(exercises) -> tuple:
    """The files a student's sandbox takes before any other of the folder, in this order."""
    return tuple(f"{slug}.py" for slug in exercises)


def exercises_of(opts: Options, layout: Layout) -> tuple:
    """The slugs of this run: those of the assignments asked for, or those the layout finds handed in."""
    names = opts.assignments or (layout.present(opts) if layout.present else ()) or registry.ASSIGNMENTS
    unknown = [n for n in names if n not in registry.ASSIGNMENTS]
    if unknown:
        raise BatchError(f"no assignment called {', '.join(unknown)}; the assignments are "
                         f"{', '.join(registry.ASSIGNMENTS)}")
    return tuple(e.slug for e in registry.EXERCISES if e.assignment in names)


def _chosen(found, wanted):
    """The students asked for (by id or folder name), or a BatchError naming those not found."""
    if not wanted:
        return found
    by = {}
    for entry in found:
        by.setdefault(entry[0], entry)
        by.setdefault(student_id(entry[0]), entry)
    missing = [w for w in wanted if w not in by]
    if missing:
        raise BatchError(f"no student called {', '.join(map(student_id, missing))} in the submissions")
    return list({id(by[w]): by[w] for w in wanted}.values())


def _check_selection(opts: Options, exercises) -> None:
    """Refuse to replace results made with variants turned the other way (each student's own numbers, or
    everyone the lessons'), or for other exercises (another --assignment), unless forced; the variants
    first, since --force would replace those grades too."""
    if opts.force:
        return
    varies = any(registry.get(slug).varies for slug in exercises)
    for name in _graded(opts.out):
        made = stored(opts.out, name)
        before = made.get("exercises")
        if varies and made and ("variants" in made) != opts.variants:
            if "variants" in made:
                was, now, same = ("each student's own numbers (--variants)", "the lessons' numbers",
                                  "add --variants (or, with --nbgrader-course, c.AttnGrade.variants = True in "
                                  "the course's nbgrader_config_local.py)")
            else:
                was, now, same = ("the lessons' numbers", "each student's own numbers (--variants)",
                                  "leave out --variants (with --nbgrader-course, c.AttnGrade.variants = False)")
            raise BatchError(f"{opts.out} holds results graded on {was}; this run would grade on {now} and change "
                             f"those grades. To grade as before, {same}; else grade into another --out folder, "
                             f"or pass --force to replace them")
        if before is not None and tuple(before) != tuple(exercises):
            raise BatchError(f"{opts.out} holds results for other exercises ({', '.join(before)}); grade into "
                             f"another --out folder (one per assignment, say), or pass --force to replace them")


def _graded(out: Path) -> list:
    """The students with a results.json in OUT, by id, sorted."""
    return sorted(p.parent.name for p in (Path(out) / "students").glob("*/results.json"))


def _grade_all(tasks, jobs, done, ends=(), rounds=3) -> None:
    """Grade ``tasks`` in a pool of job processes (``ends``: connections to a zygote, one per job
    process of the first pool); if one dies, grade its students again alone."""
    for _ in range(rounds):
        if not tasks:
            return
        tasks, suspects = _pool(tasks, jobs, done, ends)
        ends = ()
        for task in suspects:  # started when a job process died: alone, so a second death is its own
            again, started = _pool([task], 1, done)
            if started:
                done(*crashed(task, died(2)))
            tasks += again
    for task in tasks:
        done(*crashed(task, "the grading processes kept ending abruptly"))


def _pool(tasks, jobs, done, ends=()):
    """Run ``tasks``; return (those never started, those started but unfinished) if a job process died."""
    with tempfile.TemporaryDirectory(prefix="attn-grade-batch-") as marks:
        tasks = [replace(t, mark=os.path.join(marks, str(i))) for i, t in enumerate(tasks)]
        left = {t.mark: t for t in tasks}
        workers, ends = max(1, min(jobs, len(tasks))), list(ends)  # _job_zygotes made no more ends than workers
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"), initializer=_job_init,
                                   initargs=(ends, get_context("fork").Value("i", 0)) if ends else ())
        try:
            futures = {}
            for t in tasks:
                futures[pool.submit(grade_student, t)] = t
                if ends and len(getattr(pool, "_processes", None) or ()) == workers:
                    _close(ends)  # every job process has its own copy now: the zygote hears each one hang up
            for future in as_completed(futures):
                task = futures.pop(future)  # its results.json text goes once written: memory stays flat
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    continue
                except Exception as exc:  # noqa: BLE001 - not the student's doing; the batch goes on
                    outcome = crashed(task, f"the grader failed ({type(exc).__name__}: {exc})")
                done(*outcome)
                del left[task.mark]
        except BaseException:  # Ctrl-C: do not wait for the students being graded
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            _close(ends)
        pool.shutdown()
        started = [t for t in left.values() if os.path.exists(t.mark)]
        waiting = [replace(t, mark="") for t in left.values() if not os.path.exists(t.mark)]
    return waiting, [replace(t, mark="") for t in started]


def _close(sockets) -> None:
    while sockets:
        sockets.pop().close()


def _progress(total, enabled):
    """The bar, on a terminal only: in a log (a pipe, a file, CI) it is a line per redraw."""
    from tqdm import tqdm

    return tqdm(total=total, unit="student", desc="grading", dynamic_ncols=True,
                disable=not enabled or total == 0 or not sys.stderr.isatty())
