"""What a grade is: one result per check, collected per exercise.

``to_gradescope`` renders results in Gradescope's results.json shape, with an
``exercise`` key on every test so a file holding several exercises stays
readable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class CheckResult:
    exercise: str
    name: str
    points: float
    max_points: float
    outcome: str  # passed | failed | partial | undecided | error
    message: str
    visibility: str  # public | hidden

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


@dataclass
class ExerciseResult:
    exercise: str
    title: str
    checks: list = field(default_factory=list)
    problem: str = ""  # why nothing could be graded (missing file, syntax error...)
    missing: bool = False  # the file was not submitted at all
    seconds: float = 0.0

    @property
    def points(self) -> float:
        return round(sum(c.points for c in self.checks), 6)

    @property
    def max_points(self) -> float:
        return round(sum(c.max_points for c in self.checks), 6)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(points=self.points, max_points=self.max_points)
        return d


def to_gradescope(results, *, include_timing: bool = False) -> dict:
    tests = []
    for r in results:
        for c in r.checks:
            tests.append({
                "name": f"{r.exercise}: {c.name}",
                "exercise": r.exercise,
                "score": c.points,
                "max_score": c.max_points,
                "status": "passed" if c.passed else "failed",
                "output": c.message if c.outcome != "undecided" else f"Undecided: {c.message}",
                "visibility": "visible" if c.visibility == "public" else "hidden",
                "extra_data": {"outcome": c.outcome},
            })
    out = {
        "score": round(sum(r.points for r in results), 6),
        "max_score": round(sum(r.max_points for r in results), 6),
        "tests": tests,
    }
    if include_timing:
        out["execution_time"] = round(sum(r.seconds for r in results), 3)
    return out


def from_gradescope(data: dict) -> list:
    """ExerciseResults back from a results.json written by ``to_gradescope``."""
    from .. import registry

    by = {}
    for t in data["tests"]:
        slug = str(t["exercise"])
        if slug not in by:
            title = registry.BY_SLUG[slug].title if slug in registry.BY_SLUG else slug
            by[slug] = ExerciseResult(slug, title)
        name = str(t["name"])
        prefix = f"{slug}: "
        outcome = str(t.get("extra_data", {}).get("outcome") or t.get("status", "failed"))
        message = str(t.get("output", ""))
        if outcome == "undecided" and message.startswith("Undecided: "):
            message = message[len("Undecided: "):]
        by[slug].checks.append(CheckResult(
            slug, name[len(prefix):] if name.startswith(prefix) else name, float(t["score"]),
            float(t["max_score"]), outcome, message,
            "public" if t.get("visibility") == "visible" else "hidden"))
    return list(by.values())
