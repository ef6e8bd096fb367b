"""Find answers in what students get: ``find_leaks(root)``.

Runs in the instructor's checkout and scans every text file under ``root``,
and every cell of every notebook (source and text outputs), for the needles
of withheld.py: reference solution lines, exact answers, the hidden checks'
text and the model answers of written tasks. Matching ignores all
whitespace, line breaks included (re-wrapped prose still matches); a leak is
reported at the line where it starts. A copy of the package that holds an
instructor-only module (public.py: the hidden checks, classroom/, the batch
grader) is reported too. Binary files (a NUL byte, or not UTF-8) are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

from .withheld import Needle, all_needles, squeeze
from .public import INSTRUCTOR_ONLY, instructor_only_in


# ------------------------------------------------------------------ scanning
def find_leaks(root: Path, needles: list[Needle] | None = None) -> list[str]:
    """One message per leak found under ``root``: the file (and cell), what leaked, from where."""
    root = Path(root)
    needles = all_needles() if needles is None else needles
    leaks = []
    for rel in instructor_only_in(root):
        why = "instructor-only, never in" if rel.rpartition("/")[2] in INSTRUCTOR_ONLY else "not on the list of"
        leaks.append(f"{rel}: {why} what students get (graders/classroom/release/public.py)")
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        for where, text in _texts(path):
            for line, needle in _hits(text, needles):
                leaks.append(f"{path.relative_to(root)}{where} line {line}: {needle.kind} "
                             f"from {needle.origin}: {needle.shown!r}")
    return leaks


def _hits(text: str, needles: list[Needle]):
    """(line, needle) for each needle in ``text`` with whitespace (line breaks too) removed,
    so re-wrapped prose still matches; a needle found inside a longer hit is not repeated."""
    flat, lines = [], []
    for n, line in enumerate(text.splitlines(), 1):
        for ch in squeeze(line):
            flat.append(ch)
            lines.append(n)
    flat = "".join(flat)
    spans = []
    for needle in needles:
        start = flat.find(needle.text)
        while start >= 0:
            spans.append((start, start + len(needle.text), needle))
            start = flat.find(needle.text, start + 1)
    for a, b, needle in sorted(spans, key=lambda s: (s[0], -s[1])):
        if not any(c <= a and b <= d and (d - c) > (b - a) for c, d, _ in spans):
            yield lines[a], needle


def _texts(path: Path):
    """(where, text) pairs: the whole file, or each notebook cell's source and text outputs."""
    data = path.read_bytes()
    if b"\0" in data:
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(text)["cells"]
        except (ValueError, KeyError, TypeError):
            cells = None
        if isinstance(cells, list):
            for i, cell in enumerate(cells):
                yield f" cell {i}", _joined(cell.get("source", ""))
                for out in cell.get("outputs", []):
                    yield f" cell {i} output", _joined(out.get("text", "")) + "\n" + "\n".join(
                        _joined(v) for k, v in out.get("data", {}).items() if k.startswith("text/"))
            return
    yield "", text


def _joined(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)
