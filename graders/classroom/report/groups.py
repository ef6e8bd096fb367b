"""An exercise's submissions grouped by what they do, for the class report and for comments.

Every file the batch grades answers the same recorded calls, and its
results.json keeps what those answers were, as one signature per exercise
(grading/behaviour.py). Files with the same signature answer every call alike,
rounded to about six digits: usually the same mistake, whoever wrote it and
however. A group is known by its key, ``exercise.signature``
(``softmax.7ccedaf72ce2039f``); an instructor's comment for a group
(comments.py) is written under that key and follows it from one grading to the
next. A file that could not be run (missing, unreadable, not importable) has no
signature and belongs to no group.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field

from ...grading.report import pts as pts_text
from ...grading.behaviour import is_value
from . import analysis, roster

SIGNATURE = re.compile(r"[0-9a-f]{16}")
SHOWN_GROUPS = 12  # per exercise, in the report: the largest


@dataclass
class Group:
    exercise: str
    signature: str
    max_points: float
    members: list = field(default_factory=list)  # student names, in the class's order
    points: list = field(default_factory=list)  # each member's points on the exercise
    mistakes: Counter = field(default_factory=Counter)  # the known mistakes the members' feedback names
    shown: list = field(default_factory=list)  # the first member's calls answered otherwise than the reference
    differ: int = 0  # how many recorded calls the first member answers otherwise (at most behaviour.MAX_DIFFER)
    values: bool = False  # some of those answers are values it returned (not an exception, a timeout)
    variant: int = 0  # the members' numbers (kit/variants.py): the reference answers only the seed's

    @property
    def key(self) -> str:
        return f"{self.exercise}.{self.signature}"

    @property
    def full(self) -> bool:
        """Every member at full marks on the exercise."""
        return all(p >= self.max_points - 1e-9 for p in self.points)

    @property
    def answers_otherwise(self) -> bool:
        """The members answer some recorded call otherwise than the reference, and not all at full marks:
        a group a comment can speak to. On a variant's numbers, not being at full marks is enough: the
        reference answers the seed's, which is a mistake there."""
        return (self.differ > 0 or self.variant != 0) and not self.full

    @property
    def mistake(self) -> str:
        """The known mistake most members' feedback names, or ""."""
        return self.mistakes.most_common(1)[0][0] if self.mistakes else ""


def behaviour_of(student: analysis.StudentResults, slug: str) -> dict | None:
    """What ``student``'s results.json says ``slug``'s answers do, if it says it in the expected form."""
    found = student.behaviour.get(slug) if isinstance(student.behaviour, dict) else None
    return found if key_of(slug, found) else None


def key_of(slug: str, record) -> str | None:
    """The key of the group a behaviour record (grading/behaviour.py) of ``slug`` belongs to,
    ``slug.signature``, or None if the record is not in the expected form."""
    signature = record.get("signature") if isinstance(record, dict) else None
    return f"{slug}.{signature}" if isinstance(signature, str) and SIGNATURE.fullmatch(signature) else None


def of(klass: analysis.Class) -> dict:
    """slug -> its Groups, largest first (then by signature), for each exercise of the class."""
    found = {}
    for e in klass.exercises:
        groups = {}
        for s in klass.students:
            b = behaviour_of(s, e.slug)
            if b is None:
                continue
            g = groups.get(b["signature"])
            if g is None:
                g = groups[b["signature"]] = Group(e.slug, b["signature"], float(e.points))
                g.shown = [x for x in b.get("shown", []) if isinstance(x, dict)][:2]
                differ = [x for x in b.get("differ", []) if isinstance(x, str)] if isinstance(b.get("differ"), list) else []
                g.differ = len(differ)
                g.values = any(is_value(x.partition(":")[2]) for x in differ)
                g.variant = b["variant"] if isinstance(b.get("variant"), int) else 0
            g.members.append(s.name)
            g.points.append(s.scores.get(e.slug, 0.0))
            hints = {analysis.hint_of(t["output"]) for t in s.tests if t["exercise"] == e.slug and t["max_score"]} - {""}
            g.mistakes.update(h for h in hints if not analysis.EXONERATES.search(h))
        found[e.slug] = sorted(groups.values(), key=lambda g: (-len(g.members), g.signature))
    return found


def section(klass: analysis.Class, comments: dict, names: dict | None = None) -> str:
    """The report's HTML section: per exercise, the groups that lost points; ``comments``: key -> text;
    ``names``: student -> "Last, First", where a roster says (roster.who shows a student)."""
    e, names = html.escape, names or {}
    parts = ["<h2 id=groups>Same behaviour</h2><p class=muted>Each exercise's submissions grouped by what they "
             "answer on the checks' recorded calls (rounded to about six digits): one row per group of two or more "
             "that lost points, largest first, with one member's answers to the first calls it answers otherwise "
             "than the reference. A comment written for a group's key in OUT/comments.toml reaches every member's "
             "feedback (<code>attn-grade comment OUT</code>, or the next <code>attn-grade grade</code>).</p>"]
    found = of(klass)
    if klass.students and not any(found.values()):
        return parts[0] + ("<p>No results.json here says what its answers do (they were written before "
                           "attn-grade kept it, or nothing ran): grade the class again to see the groups.</p>")
    for slug, groups in found.items():
        lost = [g for g in groups if g.answers_otherwise]
        shared = [g for g in lost if len(g.members) > 1]
        rest = sum(len(g.members) for g in groups if not g.answers_otherwise)
        head = (f"{sum(len(g.members) for g in groups)} submissions run: {rest} answer as the reference does or are at full marks; {sum(len(g.members) for g in lost)} "
                f"answer otherwise and lost points: {len(shared)} group(s) of two or more, "
                f"{len(lost) - len(shared)} alone")
        rows = []
        for g in shared[:SHOWN_GROUPS]:
            pts = sorted(set(g.points))
            score = pts_text(pts[0]) if len(pts) == 1 else f"{pts_text(pts[0])}–{pts_text(pts[-1])}"
            example = "".join(f"<pre class=ex>{e(x.get('call', ''))}\n→ {e(x.get('answer', ''))}</pre>" for x in g.shown[:1])
            note = comments.get(g.key)
            rows.append(f"<tr><td><code>{e(g.key)}</code></td><td class=n>{len(g.members)}</td>"
                        f"<td class=n>{score}/{pts_text(g.max_points)}</td><td class=mk>{e(g.mistake)}</td>"
                        f"<td>{', '.join(roster.who(m, names) for m in g.members[:5])}"
                        f"{' …' if len(g.members) > 5 else ''}</td>"
                        f"<td>{example}</td><td>{e(note[:120]) if note else ''}</td></tr>")
        more = f"<p class=muted>and {len(shared) - SHOWN_GROUPS} smaller group(s)</p>" if len(shared) > SHOWN_GROUPS else ""
        table = ("<div class=wide><table><thead><tr><th>group</th><th class=n>students</th><th class=n>points</th>"
                 "<th>known mistake</th><th>members</th><th>one answer</th><th>comment</th></tr></thead>"
                 f"<tbody>{''.join(rows)}</tbody></table></div>{more}" if rows else "")
        parts.append(f"<h3>{e(slug)}</h3><p>{e(head)}</p>{table}")
    return "".join(parts)
