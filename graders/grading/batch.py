"""Grade a class: ``run(Options(SUBMISSIONS, OUT))``, the work of ``attn-grade grade``.

How SUBMISSIONS is laid out is a ``Layout``. ``FOLDERS``, the default, is one
folder per student with any subset of the exercise files (``<slug>.py``);
nbgrader's submitted/ folder is another (graders/classroom/nbsubmit.py), which
extracts the answer cells to OUT/.sources/<student>/<slug>.py first. For each
student this writes OUT/<student>/results.json (Gradescope's shape, an
``exercise`` key on every test) and at the end OUT/gradebook.csv. Both are
written atomically; students whose results.json already exists are kept
(resume after an interruption) unless ``force``.

Grading runs in ``jobs`` processes. Each grades a student's files in one
sandboxed worker (graders/sandbox/) whose scratch folder is the layout's jail
root (SUBMISSIONS itself, or OUT/.sources), so the other students' files are
not there.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

from .. import registry


@dataclass(frozen=True)
class Options:
    submissions: Path
    out: Path
    jobs: int = os.cpu_count() or 1
    timeout: float = 10.0
    memory_mb: int = 1024
    force: bool = False
    progress: bool = True


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a reader sees the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def discover(submissions: Path):
    """(students as (name, folder), skipped entries with reasons), sorted by name."""
    students, skipped = [], []
    for entry in sorted(os.scandir(submissions), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            skipped.append(f"{entry.name}: a symbolic link, not a folder")
        elif entry.is_dir():
            students.append((entry.name, Path(entry.path)))
        else:
            skipped.append(f"{entry.name}: not a folder (each student needs a folder of <slug>.py files)")
    return students, skipped


def _already_graded(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("tests"), list)


# ------------------------------------------------------------------ in a job process
def _job_init():
    from ..sandbox.jail import PR_SET_PDEATHSIG, _libc

    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # die with the batch
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def grade_student(task):
    """Grade one student's folder; return (name, results.json text, facts for the summary).

    ``problems``: slug -> (message, missing) for exercises handed in without an
    answer to grade; ``notes``: slug -> notes for the feedback (both from the Layout).
    """
    from ..sandbox.handle import Worker
    from ..sandbox.zygote import Jail, Limits
    from .engine import grade_file, import_timeout, ungraded, with_notes
    from .results import to_gradescope

    name, folder, submissions, timeout, memory_mb, problems, notes = task
    start = time.perf_counter()
    jail = Jail.for_folder(submissions, limits=Limits(memory_mb=memory_mb))
    results = []
    with Worker(folder, jail=jail, import_timeout=import_timeout(timeout)) as worker:
        for ex in registry.EXERCISES:
            if ex.slug in problems:
                results.append(ungraded(ex.slug, *problems[ex.slug]))
                continue
            result = grade_file(ex.slug, Path(folder) / f"{ex.slug}.py", call_timeout=timeout, worker=worker)
            results.append(with_notes(result, notes.get(ex.slug, ())))
        sandbox = dict(worker.sandbox)
    data = to_gradescope(results)
    facts = {
        "scores": {r.exercise: r.points for r in results},
        "full": {r.exercise: r.points >= r.max_points for r in results},
        "missing": [r.exercise for r in results if r.missing],
        "errors": [f"{r.exercise}: {r.problem}" for r in results if r.problem and not r.missing],
        "sandbox": sandbox,
        "seconds": time.perf_counter() - start,
    }
    return name, json.dumps(data, indent=2, sort_keys=True) + "\n", facts


# ------------------------------------------------------------------ the batch
def gradebook_text(out: Path, students) -> str:
    slugs = [e.slug for e in registry.EXERCISES]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["student", *slugs, "total"])
    for name, _ in students:
        data = json.loads((out / name / "results.json").read_text(encoding="utf-8"))
        per = dict.fromkeys(slugs, 0.0)
        for t in data["tests"]:
            if t.get("exercise") in per:
                per[t["exercise"]] += float(t["score"])
        row = [round(per[s], 6) for s in slugs]
        writer.writerow([name, *[f"{v:g}" for v in row], f"{round(sum(row), 6):g}"])
    return buf.getvalue()


def _remove_torn_files(out: Path) -> None:
    """Temporary files a killed run left behind (write_atomic names them .<name>.<random>.tmp)."""
    if out.is_dir():
        for pattern in (".gradebook.csv.*.tmp", "*/.results.json.*.tmp", f"{SOURCES}/*/.*.tmp"):
            for path in out.glob(pattern):
                path.unlink(missing_ok=True)


SOURCES = ".sources"  # OUT/.sources/<student>/<slug>.py: sources a layout took from what was handed in


@dataclass(frozen=True)
class Layout:
    """How SUBMISSIONS is laid out, and how to read it."""

    name: str  # "folders", "nbgrader", ...
    description: str  # for the summary: what was read, and how
    read: Callable  # read(opts) -> (students as (name, folder, problems, notes), jail root, skipped lines)


def _read_folders(opts: Options):
    found, skipped = discover(opts.submissions)
    return [(n, f, {}, {}) for n, f in found], opts.submissions, skipped


FOLDERS = Layout("folders", "one folder of <slug>.py files per student", _read_folders)


def run(opts: Options, say=print, layout: Layout = FOLDERS) -> dict:
    """Grade everything; return facts about each student graded in this run."""
    _remove_torn_files(opts.out)
    found, root, skipped = layout.read(opts)
    students = [(n, f) for n, f, _, _ in found]
    for line in skipped:
        say(f"skipped {line}")
    todo = [s for s in found if opts.force or not _already_graded(opts.out / s[0] / "results.json")]
    kept = len(students) - len(todo)
    if kept:
        say(f"{kept} student(s) already graded in {opts.out}: kept (use --force to grade them again)")
    tasks = [(n, str(f), str(root), opts.timeout, opts.memory_mb, problems, notes)
             for n, f, problems, notes in todo]
    facts = {}
    bar = _progress(len(tasks), opts.progress)
    ctx = get_context("fork")
    with ctx.Pool(processes=max(1, min(opts.jobs, len(tasks) or 1)), initializer=_job_init) as pool:
        try:
            for name, text, fact in pool.imap_unordered(grade_student, tasks):
                write_atomic(opts.out / name / "results.json", text)
                facts[name] = fact
                bar.update(1)
        finally:
            bar.close()
    write_atomic(opts.out / "gradebook.csv", gradebook_text(opts.out, students))
    say(summary(opts.out, students, facts, layout))
    return facts


def _progress(total, enabled):
    from tqdm import tqdm

    return tqdm(total=total, unit="student", desc="grading", disable=not enabled or total == 0,
                dynamic_ncols=True)


def summary(out: Path, students, facts, layout: Layout = FOLDERS) -> str:
    lines = [f"Graded {len(students)} student(s); results in {out}/<student>/results.json, "
             f"gradebook in {out / 'gradebook.csv'}", f"Layout read: {layout.description}"]
    if not students:
        return "\n".join(lines)
    rows = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8"))))
    totals = [float(r["total"]) for r in rows]
    top = sum(e.points for e in registry.EXERCISES)
    lines.append(f"Mean total: {statistics.mean(totals):.2f} / {top:g}")
    lines.append("Full marks per exercise:")
    for e in registry.EXERCISES:
        full = sum(1 for r in rows if float(r[e.slug]) >= e.points)
        lines.append(f"  {e.slug:<15} {full:>4}/{len(rows)}  ({100 * full / len(rows):.0f} %)")
    errors = {n: f["errors"] for n, f in facts.items() if f["errors"]}
    if errors:
        lines.append(f"Submissions with errors ({len(errors)}):")
        for name in sorted(errors):
            for err in errors[name]:
                lines.append(f"  {name}: {err}")
    if facts:
        box = next(iter(facts.values()))["sandbox"]
        lines.append("Isolation: " + "; ".join(box.get("measures", [])))
        for m in box.get("missing", []):
            lines.append("Not isolated: " + m)
        secs = sorted(f["seconds"] for f in facts.values())
        lines.append(f"Time per student: median {statistics.median(secs):.2f} s")
    return "\n".join(lines)
