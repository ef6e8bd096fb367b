"""What a grade is: one result per check, collected per exercise.

``to_gradescope`` renders results in Gradescope's results.json shape, with an
``exercise`` key on every test so a file holding several exercises stays
readable.

A check left *undecided* (an exact answer SymPy could not settle within its
time bound) has 0 points so far, but its points are pending, not lost: a
person is to check it. In results.json such a test has
``extra_data.needs_manual_grade: true`` (nbgrader's word for it; the outcome
stays ``"undecided"``) and its output begins "Undecided: "; the file's
top-level ``output`` then says how many points wait for a person. Programs
read it with ``waiting_in``; every report, the batch's summary and gradebook,
the class report, the nbgrader gradebook and the export take it from there.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace

from ..kit.outcomes import Outcome

MAX_CHECK_TEXT = 4_000  # characters of feedback one check may give
MAX_FILE_TEXT = 32_000  # characters of feedback one exercise file may give, all checks together
# Control characters (but newline and tab), DEL, C1 controls and the bidirectional-text controls:
# from a student's error text they could move the cursor, hide text or write the clipboard.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """``text`` with every control character but newline and tab written as an escape (``\\x1b``)."""
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def cut(text: str, limit: int) -> str:
    """``text`` shortened to about ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"... ({len(text) - limit} more characters not shown)"


@dataclass(frozen=True)
class CheckResult:
    exercise: str
    name: str
    points: float
    max_points: float
    outcome: Outcome  # a stored word is read back as one
    message: str
    visibility: str  # public | hidden

    def __post_init__(self):
        object.__setattr__(self, "outcome", Outcome.read(self.outcome))

    @property
    def passed(self) -> bool:
        return self.outcome == Outcome.PASSED

    @property
    def waits(self) -> bool:
        """Whether a person is to check this one: its points are pending, not lost."""
        return self.outcome == Outcome.UNDECIDED

    @property
    def pending(self) -> float:
        """The points that wait for a person's check (0 for a check that does not wait)."""
        return round(self.max_points - self.points, 6) if self.waits else 0.0


@dataclass
class ExerciseResult:
    exercise: str
    title: str
    checks: list = field(default_factory=list)
    problem: str = ""  # why nothing could be graded (missing file, syntax error...)
    missing: bool = False  # the file was not submitted at all
    seconds: float = 0.0
    behaviour: dict | None = None  # what its answers do (behaviour.py), where the grading observed it
    variant: int = 0  # the numbers it was graded on (kit/variants.py): 0, the seed's, unless the course varies them

    @property
    def points(self) -> float:
        return round(sum(c.points for c in self.checks), 6)

    @property
    def max_points(self) -> float:
        return round(sum(c.max_points for c in self.checks), 6)

    @property
    def pending(self) -> float:
        """The points that wait for a person's check (undecided checks), not lost."""
        return round(sum(c.pending for c in self.checks), 6)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(points=self.points, max_points=self.max_points)
        if not self.variant:
            del d["variant"]
        return d


def bounded(result: ExerciseResult) -> ExerciseResult:
    """``result`` with its texts cleaned of control characters and cut to size: at most
    MAX_CHECK_TEXT characters a check and about MAX_FILE_TEXT for the whole file."""
    left = MAX_FILE_TEXT
    checks = []
    for c in result.checks:
        text = cut(clean(c.message), max(200, min(MAX_CHECK_TEXT, left)))
        left -= len(text)
        checks.append(replace(c, message=text))
    result.checks = checks
    result.problem = cut(clean(result.problem), MAX_CHECK_TEXT)
    return result


UNDECIDED_PREFIX = "Undecided: "  # how the output of a test that waits for a person begins


def gradescope_test(exercise: str, c: CheckResult) -> dict:
    """One check of ``exercise`` as a test of Gradescope's results.json."""
    test = {
        "name": f"{exercise}: {c.name}",
        "exercise": exercise,
        "score": c.points,
        "max_score": c.max_points,
        "status": "passed" if c.passed else "failed",  # Gradescope knows no third status
        "output": c.message if not c.waits else f"{UNDECIDED_PREFIX}{c.message}",
        "visibility": "visible" if c.visibility == "public" else "hidden",
        "extra_data": {"outcome": c.outcome},
    }
    if c.waits:
        test["extra_data"]["needs_manual_grade"] = True
    return test


def to_gradescope(results, *, include_timing: bool = False) -> dict:
    tests = [gradescope_test(r.exercise, c) for r in results for c in r.checks]
    out = {
        "score": round(sum(r.points for r in results), 6),
        "max_score": round(sum(r.max_points for r in results), 6),
        "tests": tests,
    }
    pending = round(sum(r.pending for r in results), 6)
    if pending:
        out["output"] = pending_line(pending, sum(1 for r in results for c in r.checks if c.waits))
    if include_timing:
        out["execution_time"] = round(sum(r.seconds for r in results), 3)
    return out


def points_text(x: float) -> str:
    """``x`` points, as the reports round them: "1 point", "0.5 points"."""
    shown = f"{round(x, 2):g}"
    return f"{shown} point" if shown == "1" else f"{shown} points"


def pending_line(points: float, checks: int) -> str:
    """What a grade with ``checks`` undecided checks says of their ``points``."""
    return (f"{points_text(points)} wait for a person's check ({checks} check{'s' if checks != 1 else ''} "
            f"SymPy could not settle): pending, not lost; the score so far leaves them out")


def waits(test) -> bool:
    """Whether a results.json test waits for a person (files written before the flag: by its outcome)."""
    extra = test.get("extra_data") if isinstance(test, dict) and isinstance(test.get("extra_data"), dict) else {}
    if "needs_manual_grade" in extra:
        return extra["needs_manual_grade"] is True
    return extra.get("outcome") == Outcome.UNDECIDED.value


def waiting_in(data: dict) -> list:
    """(exercise, check name, points pending) for each test of a results.json that waits for a person."""
    found = []
    for t in data.get("tests", []) if isinstance(data, dict) else ():
        if waits(t):
            slug = str(t.get("exercise", ""))
            name = str(t.get("name", ""))
            name = name[len(slug) + 2:] if name.startswith(f"{slug}: ") else name
            found.append((slug, name, round(float(t["max_score"]) - float(t["score"]), 6)))
    return found


def variants_of(results) -> dict:
    """slug -> the variant each result was graded on (kit/variants.py), the seed's left out: what a
    results.json of a class graded with variants keeps in extra_data.variants."""
    return {r.exercise: r.variant for r in results if r.variant}


def variants_in(data: dict) -> dict:
    """A results.json's extra_data.variants, slug -> variant; {} where it has none (or holds something else)."""
    extra = data.get("extra_data") if isinstance(data.get("extra_data"), dict) else {}
    found = extra.get("variants") if isinstance(extra.get("variants"), dict) else {}
    return {k: v for k, v in found.items() if type(v) is int}


def from_gradescope(data: dict) -> list:
    """ExerciseResults back from a results.json written by ``to_gradescope``."""
    from .. import registry

    by, chosen = {}, variants_in(data)
    for t in data["tests"]:
        slug = clean(str(t["exercise"]))
        if slug not in by:
            title = registry.BY_SLUG[slug].title if slug in registry.BY_SLUG else slug
            by[slug] = ExerciseResult(slug, title, variant=chosen.get(slug, 0))
        name = str(t["name"])
        prefix = f"{slug}: "
        outcome = str(t.get("extra_data", {}).get("outcome") or t.get("status", "failed"))
        message = clean(str(t.get("output", "")))
        if outcome == Outcome.UNDECIDED and message.startswith(UNDECIDED_PREFIX):
            message = message[len(UNDECIDED_PREFIX):]
        name = clean(name)
        by[slug].checks.append(CheckResult(
            slug, name[len(prefix):] if name.startswith(prefix) else name, float(t["score"]),
            float(t["max_score"]), outcome, message,
            "public" if t.get("visibility") == "visible" else "hidden"))
    return list(by.values())
