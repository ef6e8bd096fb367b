"""What a batch says when it has graded a class: totals, full marks, errors, isolation, time.

"Submissions with errors" names each exercise that could not be graded: the
file could not be read or imported (``problem``, every check "not graded: ..."),
or the student's code stopped some of its checks by hanging (a timeout) or by
ending its worker (a crash). Those checks judged no answer: ``stopped`` tells
them by their words (sandbox/submission.py, sandbox/sandbox.py, budget.py), for
this summary and for the class report (classroom/report/analysis.py).

"Waiting for a person" names each check SymPy could not settle (grading/results.py),
of every student in OUT: its points are pending a person's check, not lost.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from .. import registry
from ..grading.results import points_text, waiting_in
from ..outfolder.outfiles import results_path

NOT_GRADED = "not graded: "  # how every check of an exercise that could not be graded at all begins
STOPS = (  # (cause, words on the first line of a check the student's code stopped)
    ("timed out", ("timed out after ", "timed out earlier in this exercise", "the time budget for ")),
    ("crashed", ("the worker process ended while", "the worker had stopped before", "was not run again: earlier in "
                 "this exercise", "ended or hung the worker", "larger than any answer asked for",
                 "far more than any answer asked for", "the worker sent an", "the worker's answer")),
)


def stopped(message: str) -> str:
    """The cause ("timed out", "crashed") when the student's code stopped this check, else ""."""
    first = message.split("\n", 1)[0]
    return next((cause for cause, words in STOPS if any(w in first for w in words)), "")


def stops(tests) -> list:
    """(exercise, cause, reason) for each exercise, read but not fully graded, whose checks the student's
    code stopped (results.json ``tests``): the first such check's words, and how many checks it stopped."""
    found = {}
    for t in tests:
        if t["max_score"] and not t["output"].startswith(NOT_GRADED):
            found.setdefault(t["exercise"], []).append(t["output"])
    out = []
    for slug, outputs in found.items():
        hit = [(stopped(o), o.split("\n", 1)[0]) for o in outputs if stopped(o)]
        if hit:
            out.append((slug, hit[0][0], f"{len(hit)} of {len(outputs)} checks not graded: {hit[0][1]}"))
    return out


def _results(out: Path, name: str) -> dict:
    """One student's results.json in OUT, or {} where it cannot be read."""
    try:
        data = json.loads(results_path(out, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _stopped_in(out: Path, name: str) -> list:
    """The stops of one student's results.json in OUT, as "exercise: reason" lines."""
    data = _results(out, name)
    return [f"{slug}: {reason}" for slug, _, reason in stops(data["tests"])] if "tests" in data else []


def _waiting_in(out: Path, name: str, slugs) -> list:
    """(exercise, check, points pending) of one student's results.json in OUT that wait for a person."""
    return [w for w in waiting_in(_results(out, name)) if w[0] in slugs]


def waiting_lines(out: Path, students, slugs) -> list:
    """The summary's lines on the checks that wait for a person, [] when none does."""
    found = {n: w for n in students if (w := _waiting_in(out, n, slugs))}
    if not found:
        return []
    total = sum(p for w in found.values() for *_, p in w)
    lines = [f"Waiting for a person ({len(found)} student(s), {points_text(total)} pending, not lost): "
             f"exact answers SymPy could not settle in time; check each by hand (attn-grade show "
             f"{out}/students/<student>/results.json). Until then these points are not in the totals, and "
             f"attn-grade export refuses these grades (docs/instructors/exports.md, 'Undecided answers')"]
    for name in sorted(found):
        for slug, check, points in found[name]:
            lines.append(f"  {name}: {slug}: {check} ({points_text(points)} pending)")
    return lines


def summary(out: Path, students, facts, layout: str, exercises=None, variants: bool = False) -> str:
    import csv
    import io

    from ..sandbox.report import isolated

    chosen = [registry.get(s) for s in (exercises or registry.BY_SLUG)]
    now = len(facts) if facts is not None else len(students)
    done = f"Graded {len(students)} student(s)" if now >= len(students) else \
        f"{len(students)} student(s): {now} graded in this run, the others kept"
    lines = [f"{done}; results in {out}/students/<student>/results.json, "
             f"gradebook in {out / 'gradebook.csv'}", f"Layout read: {layout}"]
    varied = [e.slug for e in registry.EXERCISES if e.varies and e.slug in (exercises or registry.BY_SLUG)]
    if variants and varied:
        lines.append(f"Variants: each student graded on their own numbers in {', '.join(varied)}")
    if not students:
        return "\n".join(lines)
    rows = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8"))))
    totals = [float(r["total"]) for r in rows]
    top = sum(e.points for e in chosen)
    names = sorted({e.assignment for e in chosen}, key=registry.ASSIGNMENTS.index)
    what = "" if len(chosen) == len(registry.EXERCISES) else f" ({', '.join(names)} only)"
    lines.append(f"Mean total: {statistics.mean(totals):.2f} / {top:g}{what}")
    lines.append("Full marks per exercise:")
    for e in chosen:
        full = sum(1 for r in rows if float(r[e.slug]) >= e.points)
        lines.append(f"  {e.slug:<15} {full:>4}/{len(rows)}  ({100 * full / len(rows):.0f} %)")
    errors = {n: f["errors"] + _stopped_in(out, n) for n, f in facts.items()}
    errors = {n: e for n, e in errors.items() if e}
    if errors:
        lines.append(f"Submissions with errors ({len(errors)}):")
        for name in sorted(errors):
            for err in errors[name]:
                lines.append(f"  {name}: {err}")
    lines += waiting_lines(out, students, {e.slug for e in chosen})
    boxes = [f["sandbox"] for f in facts.values() if f["sandbox"]]
    if boxes:
        lines.append("Isolation: " + "; ".join(boxes[0].get("measures", [])))
        for m in boxes[0].get("missing", []):
            lines.append("Not isolated: " + m)
        if not all(isolated(b.get("protections")) for b in boxes):
            lines.append("Students were NOT isolated from each other or from the solutions "
                         "(--allow-unisolated); every results.json says so")
    shaky = [n for n in students if _results(out, n).get("extra_data", {}).get("insecure_cluster")]
    if shaky:
        lines.append(f"INSECURE: {len(shaky)} student(s) graded through a plain tcp:// Dask scheduler "
                     f"(--insecure-cluster), which anyone who reached it could have changed; their results.json "
                     f"say so, and grading over tls:// grades them again")
    if facts:
        secs = sorted(f["seconds"] for f in facts.values())
        lines.append(f"Time per student: median {statistics.median(secs):.2f} s")
    return "\n".join(lines)
