"""How a class did, from the files ``attn-grade grade`` wrote in OUT: the figures of the report.

``load(out)`` reads OUT/students/*/results.json, OUT/gradebook.csv and
OUT/integrity.json, keeping the exercises of the gradebook's columns (or of the
assignments asked for) and nothing else. From them: each check's share of
students who lost points on it, with "not attempted" (the stub untouched, the
file missing, the function not defined) kept apart from "wrong", and the most
common hint the wrong ones got; the known mistakes across the class (the hints:
"It looks like ..."), ranked, each student once per mistake however many
checks name it (``one_each``); and the submissions that could not be graded,
by cause. A check that judged no answer (the file unreadable or not importable,
the code hung or ended its worker) is neither right nor wrong: it counts under
its cause in ``errors``, and is left out of that check's shares. A check SymPy
could not settle waits for a person (``waiting``): it is not wrong either, and
is left out of the shares too.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ... import registry
from ...kit.catalogue import NAMED
from ...outfolder.outfiles import WAITING_COLUMN, formula_like
from ...batch.summary import NOT_GRADED, stopped, stops
from ...grading.results import variants_in, waiting_in, waits

NOT_ATTEMPTED = ("not written yet", "NotImplementedError", "was not found", "is not defined in",
                 "not handed in", "it was not handed in")
CAUSES = (  # (cause, words in the reason that tell it), first match wins
    ("timed out", ("timed out", "time budget")),
    ("crashed", ("ended while", "ended abruptly", "grading crashed", "killed", "ended or hung", "had stopped before")),
    ("missing", ("was not found", "not handed in")),
    ("unreadable", ("syntax error", "not valid UTF-8", "not a readable notebook", "is not a notebook",
                    "no answer cell", "cells with grade id", "more than any answer needs", "symbolic link",
                    "larger than")),
    ("error at import", ("raised", "importing")),
)
BOTH = re.compile(r"there are two mistakes: (.+?); and (.+)", re.S)  # kit/catalogue.py's both()
WORD = re.compile(r"\w+|[^\w\s]")  # a hint's words and signs, as one_each compares them
# A hint that clears a step ("your scaling step ... is right, so the problem is in dot_variance()") names no mistake.
EXONERATES = re.compile(r"\bis right, so the problem is in\b")


@dataclass
class StudentResults:
    """One student's results.json, as the class report reads it."""

    name: str
    scores: dict  # slug -> points
    total: float
    tests: list  # the results.json tests
    behaviour: dict = field(default_factory=dict)  # slug -> what its answers do (grading/behaviour.py)
    variants: dict = field(default_factory=dict)  # slug -> the student's variant, in a class graded with them


@dataclass
class Item:
    """One check across the class."""

    exercise: str
    name: str
    max_points: float
    students: int = 0
    wrong: int = 0
    not_attempted: int = 0
    ungraded: int = 0  # students whose answer this check could not judge: left out of ``students``
    hints: Counter = field(default_factory=Counter)

    @property
    def lost(self) -> int:
        return self.wrong + self.not_attempted

    @property
    def top_hint(self) -> tuple:
        """(hint, how many wrong answers got it), or ("", 0)."""
        return self.hints.most_common(1)[0] if self.hints else ("", 0)


@dataclass
class Class:
    students: list
    exercises: list  # the registry's Exercise of each gradebook column, in order
    flags: list | None  # OUT/integrity.json; None when there is none (no scan finished in OUT)

    @property
    def max_total(self) -> float:
        return sum(e.points for e in self.exercises)


class NotInGradebook(ValueError):
    """The assignment asked for has no column in the gradebook."""


def load(out: Path, assignments=()) -> Class:
    """The class graded in OUT: the gradebook's exercises, or those of ``assignments`` among them."""
    out = Path(out)
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    last = -2 if header[-1] == WAITING_COLUMN else -1  # the total's column: "needs a person" may follow it
    columns = [registry.get(s) for s in header[1:last]]
    exercises = [e for e in columns if not assignments or e.assignment in assignments]
    if not exercises:
        raise NotInGradebook(f"{out / 'gradebook.csv'} holds no exercise of {', '.join(assignments)}; its "
                             f"exercises are {', '.join(e.slug for e in columns) or 'none'}")
    shown = {e.slug for e in exercises}
    students = []
    for row in body:
        guarded = row[0].startswith("'") and formula_like(row[0][1:])
        name = row[0][1:] if guarded else row[0]  # the gradebook's guard against formulas taken off
        data = json.loads((out / "students" / name / "results.json").read_text(encoding="utf-8"))
        scores = {e.slug: float(v) for e, v in zip(columns, row[1:last]) if e.slug in shown}
        total = float(row[last]) if len(exercises) == len(columns) else round(sum(scores.values()), 6)
        students.append(StudentResults(name, scores, total, [t for t in data["tests"] if t["exercise"] in shown],
                                {k: v for k, v in behaviour_in(data).items() if k in shown},
                                {k: v for k, v in variants_in(data).items() if k in shown}))
    flags_file = out / "integrity.json"
    flags = json.loads(flags_file.read_text(encoding="utf-8")) if flags_file.is_file() else None
    if flags and len(exercises) < len(registry.EXERCISES):  # a flag on an exercise not shown is not shown
        flags = [f for f in flags if Path(f["where"]).stem in shown or Path(f["where"]).stem not in registry.BY_SLUG]
    return Class(students, exercises, flags)


def behaviour_in(data: dict) -> dict:
    """slug -> what its answers do (grading/behaviour.py), from a results.json; {} if it says nothing."""
    extra = data.get("extra_data") if isinstance(data.get("extra_data"), dict) else {}
    return extra["behaviour"] if isinstance(extra.get("behaviour"), dict) else {}


def attempted(message: str) -> bool:
    return not any(words in message for words in NOT_ATTEMPTED)


def hint_of(message: str) -> str:
    """The known mistake a message names ("forgot the √d_k scaling"), or ""."""
    m = NAMED.search(message)
    return " ".join(m.group(1).split()) if m else ""


def items(klass: Class) -> list[Item]:
    """Every check that carries points, most often lost first. A check that judged no answer counts
    in ``ungraded``, not in ``students``: its shares are of the students it graded."""
    found = {}
    for s in klass.students:
        for t in s.tests:
            if not t["max_score"]:
                continue
            key = (t["exercise"], t["name"])
            item = found.setdefault(key, Item(t["exercise"], t["name"].split(": ", 1)[-1], float(t["max_score"])))
            lost = float(t["score"]) < float(t["max_score"]) - 1e-9
            if waits(t):  # pending a person's check: neither right nor wrong yet
                item.ungraded += 1
                continue
            if lost and attempted(t["output"]) and (t["output"].startswith(NOT_GRADED) or stopped(t["output"])):
                item.ungraded += 1
                continue
            item.students += 1
            if lost and attempted(t["output"]):
                item.wrong += 1
                hint = hint_of(t["output"])
                if hint:
                    item.hints[hint] += 1
            elif lost:
                item.not_attempted += 1
    return sorted(found.values(), key=lambda i: (-i.lost / max(i.students, 1), -i.wrong, i.exercise, i.name))


def mistakes(klass: Class) -> list[tuple]:
    """(mistake, students who made it, their share), most common first: each student once per mistake,
    however many checks or exercises named it (graders word one mistake alike: kit/models.py's NO_SHIFT,
    and where the checks of one exercise word it otherwise, ``one_each`` tells); a hint that clears a
    step (EXONERATES) is not a mistake."""
    counts = Counter()
    for s in klass.students:
        named = set()
        for slug in {t["exercise"] for t in s.tests}:
            hints = {hint_of(t["output"]) for t in s.tests if t["exercise"] == slug and t["max_score"]} - {""}
            named |= one_each(h for h in hints if not EXONERATES.search(h))  # not a note, nor a comment
        counts.update(named)
    n = max(len(klass.students), 1)
    return [(hint, k, k / n) for hint, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def one_each(hints) -> set:
    """The mistakes the ``hints`` of one student's exercise name, each once. A hint naming two
    (kit/catalogue.py's ``both``) names each of them; a hint that says all another says and more (a
    qualifier, an explanation, the step it shows in: "the factor 1/√d_k was not squared" beside "the
    factor was not squared") is that one, as the checks of one exercise word it."""
    found = set()
    for hint in hints:
        two = BOTH.fullmatch(hint)
        found |= set(two.groups()) if two else {hint}
    words = {h: WORD.findall(h) for h in found}
    return {h for h in found if not any(len(words[o]) < len(words[h]) and _within(words[o], words[h])
                                        for o in found)}


def _within(short: list, long: list) -> bool:
    """Whether the words of ``short`` are among those of ``long``, in order."""
    rest = iter(long)
    return all(word in rest for word in short)


def errors(klass: Class) -> dict:
    """cause -> [(student, exercise, reason)] for the exercises that could not be graded: not at all (every
    check "not graded: ..."), or in part, where the student's code hung or ended its worker."""
    found = {cause: [] for cause, _ in CAUSES}
    for s in klass.students:
        for slug in s.scores:
            outputs = {t["output"] for t in s.tests if t["exercise"] == slug and t["max_score"]}
            if len(outputs) != 1:
                continue
            (reason,) = outputs
            if not reason.startswith(NOT_GRADED):
                continue
            reason = reason[len(NOT_GRADED):]
            cause = next((c for c, words in CAUSES if any(w in reason for w in words)), "error at import")
            found[cause].append((s.name, slug, reason))
        for slug, cause, reason in stops(s.tests):
            found[cause].append((s.name, slug, reason))
    return {c: v for c, v in found.items() if v}


def waiting(klass: Class) -> list[tuple]:
    """(student, exercise, check, points pending) for every check that waits for a person's check."""
    return [(s.name, slug, check, points) for s in klass.students
            for slug, check, points in waiting_in({"tests": s.tests})]
