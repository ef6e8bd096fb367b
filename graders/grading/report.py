"""The text report: each check with ✓ or ✗, points and feedback; totals."""

from __future__ import annotations

GREEN, RED, YELLOW, BOLD, DIM, RESET = "\033[32m", "\033[31m", "\033[33m", "\033[1m", "\033[2m", "\033[0m"
MARKS = {"passed": "✓", "partial": "◐", "undecided": "?", "error": "!", "failed": "✗"}


def _paint(text, code, color):
    return f"{code}{text}{RESET}" if color else text


def _pts(x):
    return f"{x:g}"


def _common_problem(r):
    """The reason, when every check says "not graded: <the same reason>"."""
    messages = {c.message for c in r.checks}
    if len(messages) == 1 and r.checks and r.checks[0].message.startswith("not graded: "):
        return r.checks[0].message[len("not graded: "):]
    return ""


def render_text(results, *, color=False, totals=True, summary_only=False, only_failed=False, seconds=None) -> str:
    lines = []
    if not summary_only:
        for r in results:
            lines.append(_paint(f"{r.exercise} — {r.title}", BOLD, color))
            problem = r.problem or _common_problem(r)
            if problem:  # nothing could be graded: say why once, not once per check
                lines.append("  " + _paint(f"✗ {problem}", RED, color))
                lines.append(f"  {r.exercise}: {_pts(r.points)}/{_pts(r.max_points)}")
                lines.append("")
                continue
            for c in r.checks:
                if only_failed and c.passed:
                    continue
                code = {"passed": GREEN, "partial": YELLOW, "undecided": YELLOW}.get(c.outcome, RED)
                tag = "" if c.visibility == "public" else _paint(" (hidden)", DIM, color)
                lines.append(f"  {_paint(MARKS.get(c.outcome, '✗'), code, color)} "
                             f"{c.name}{tag}  [{_pts(c.points)}/{_pts(c.max_points)}]")
                if c.message:
                    for text in c.message.splitlines():
                        lines.append("      " + text)
            lines.append(f"  {r.exercise}: {_pts(r.points)}/{_pts(r.max_points)}")
            lines.append("")
    if totals or summary_only:
        got = sum(r.points for r in results)
        out_of = sum(r.max_points for r in results)
        lines.append(_paint("Summary", BOLD, color))
        for r in results:
            mark = "✓" if r.points >= r.max_points else "✗"
            code = GREEN if mark == "✓" else RED
            lines.append(f"  {_paint(mark, code, color)} {r.exercise:<15} {_pts(r.points):>5}/{_pts(r.max_points)}")
        took = f" in {seconds:.1f} s" if seconds is not None else ""
        lines.append(_paint(f"Total: {_pts(round(got, 6))}/{_pts(round(out_of, 6))}{took}", BOLD, color))
    return "\n".join(lines)
