"""What a batch says when it has graded a class: totals, full marks, errors, isolation, time."""

from __future__ import annotations

import statistics
from pathlib import Path

from .. import registry


def summary(out: Path, students, facts, layout: str, exercises=None) -> str:
    import csv
    import io

    from ..sandbox.handle import isolated

    chosen = [registry.get(s) for s in (exercises or registry.BY_SLUG)]
    lines = [f"Graded {len(students)} student(s); results in {out}/students/<student>/results.json, "
             f"gradebook in {out / 'gradebook.csv'}", f"Layout read: {layout}"]
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
    errors = {n: f["errors"] for n, f in facts.items() if f["errors"]}
    if errors:
        lines.append(f"Submissions with errors ({len(errors)}):")
        for name in sorted(errors):
            for err in errors[name]:
                lines.append(f"  {name}: {err}")
    boxes = [f["sandbox"] for f in facts.values() if f["sandbox"]]
    if boxes:
        lines.append("Isolation: " + "; ".join(boxes[0].get("measures", [])))
        for m in boxes[0].get("missing", []):
            lines.append("Not isolated: " + m)
        if not all(isolated(b.get("protections")) for b in boxes):
            lines.append("Students were NOT isolated from each other or from the solutions "
                         "(--allow-unisolated); every results.json says so")
    if facts:
        secs = sorted(f["seconds"] for f in facts.values())
        lines.append(f"Time per student: median {statistics.median(secs):.2f} s")
    return "\n".join(lines)
