"""Signs of copying between students, seen by behaviour and by structure, for a person to look at.

* ``shared rare mistake``: two students whose files of one exercise answer
  every recorded call alike *and* otherwise than the reference (the same group,
  groups.py) with values (not only exceptions or timeouts, as an untouched stub
  gives), weighted by how rare that behaviour is in the class: a weight of
  log(n / k) for a group of k (at most MOST) among the n files of the exercise that ran, halved
  when the feedback names a known mistake (those are the common ones, which the
  lessons teach). A pair is flagged when its weights, summed over the
  exercises, reach RARE (log 20: one behaviour that one file in twenty shows, or
  two less rare ones). Many students sharing a common mistake is no signal.
* ``identical answers``: two files of one exercise whose tokens are the same,
  where the students could have written otherwise (identical.py: never an
  untouched stub, nor a short right answer the exercise forces).
* ``similar code``: two files of one exercise whose code is the same up to
  names, comments, strings and layout, once the stub's own lines and the code
  many files share are left out (codematch.py: copydetect's winnowing, as MOSS).
* ``another student's variant``: in a course with variants (kit/variants.py), a
  file whose answers are right for one other variant's numbers, not for the
  student's own (the hidden check says so in its feedback, ``OTHER_VARIANT``),
  with the classmates who have that variant: each student's variant is a public
  function of the assignment and their id.

Each flag goes to integrity.json (flags change no score); OUT/copying.json keeps
the evidence for report.html: the calls and the answers both gave, or the
matching spans of both files.
"""

from __future__ import annotations

import html
import json
import math
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import write_atomic
from ...kit import variants
from ..report import analysis, groups, roster
from . import codematch, identical
from .integrity import Flag, stub_texts, where_of

FILE = "copying.json"

RARE, MOST = math.log(20), 10  # a group of more than MOST is no rare behaviour for a pair


def find(out: Path, codes: dict, exercises, release=None, layout: str = "folders") -> list:
    """Every kind of flag for the class graded in OUT (``codes`` from integrity.scan, of a class whose
    folders are laid out as ``layout`` says); the evidence goes to OUT/copying.json."""
    stubs = {slug: stub_texts(registry.get(slug), release) for slug in exercises}
    codes = {k: v for k, v in codes.items() if k in stubs}
    found, evidence = codematch.compare(codes, stubs)
    flags = [Flag(who, where, "similar code", detail) for who, where, detail in found]
    try:
        klass = analysis.load(out)
    except (OSError, ValueError, KeyError, IndexError) as exc:  # no gradebook: nothing was graded
        evidence.append({"kind": "shared rare mistake", "skipped": f"the class could not be read ({exc})"})
        return _written(out, evidence, flags + identical.flags(codes, stubs))
    more, seen = shared_mistakes(klass)
    flags += identical.flags(codes, stubs, identical.verdicts_of(klass)) + more
    flags += other_variants(klass, layout, {who for per in codes.values() for who in per})
    return _written(out, evidence + seen, flags)


def _written(out: Path, evidence: list, flags: list) -> list:
    """``flags``, once the ``evidence`` is in OUT/copying.json."""
    write_atomic(Path(out) / FILE, json.dumps(evidence, indent=1, sort_keys=True) + "\n")
    return flags


def evidence(out: Path) -> list:
    """What OUT/copying.json holds, or [] if there is none to read."""
    try:
        found = json.loads((Path(out) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return found if isinstance(found, list) else []


def of_exercises(found: list, slugs) -> list:
    """The evidence of ``found`` (copying.json) about the exercises ``slugs`` only: what a report limited
    to some assignments shows. A pair sharing rare mistakes keeps the exercises among those."""
    slugs, kept = set(slugs), []
    for item in found:
        if not isinstance(item, dict):
            continue
        if "exercises" in item:
            mine = [x for x in item["exercises"] if isinstance(x, dict) and x.get("exercise") in slugs]
            if mine:
                kept.append({**item, "exercises": mine})
        elif item.get("exercise", None) in slugs or "skipped" in item:
            kept.append(item)
    return kept


def shared_mistakes(klass: analysis.Class) -> tuple[list, list]:
    """(flags, evidence) for the pairs whose shared wrong behaviours are rare enough."""
    found = groups.of(klass)
    scores, shared = defaultdict(float), defaultdict(list)
    for slug, gs in found.items():
        ran = sum(len(g.members) for g in gs)
        for g in gs:
            if not (g.answers_otherwise and g.values and 2 <= len(g.members) <= MOST):
                continue
            weight = math.log(ran / len(g.members)) * (0.5 if g.mistake else 1.0)
            for pair in combinations(sorted(g.members), 2):
                scores[pair] += weight
                shared[pair].append({"exercise": slug, "group": g.key, "size": len(g.members), "of": ran,
                                     "weight": round(weight, 3), "mistake": g.mistake, "shown": g.shown})
    flags, evidence = [], []
    for (a, b), score in sorted(scores.items()):
        if score < RARE - 1e-9:
            continue
        where = ", ".join(s["exercise"] for s in shared[(a, b)])
        for me, other in ((a, b), (b, a)):
            flags.append(Flag(me, where, "shared rare mistake",
                              f"answers as {other} does, otherwise than the reference, in {where} "
                              f"(rarity {score:.1f}; see report.html)"))
        evidence.append({"kind": "shared rare mistake", "students": [a, b], "score": round(score, 3),
                         "exercises": shared[(a, b)]})
    return flags, evidence


def other_variants(klass: analysis.Class, layout: str = "folders", handed_in=()) -> list:
    """A flag for each student and exercise whose feedback says the answers fit another variant's numbers,
    naming the classmates who have that variant: those graded in OUT and those who ``handed_in`` an
    answer (a grade of a few students, --student, compares them with the whole class)."""
    flags = []
    for s in klass.students:
        seen = {}
        for t in s.tests:
            found = variants.OTHER_VARIANT.search(t.get("output") or "")
            if found and t.get("exercise") in registry.BY_SLUG:
                seen.setdefault(t["exercise"], int(found.group(1)))
        for slug, other in sorted(seen.items()):
            assignment = registry.get(slug).assignment
            own = variants.of(assignment, s.name)
            whose = sorted(c for c in {c.name for c in klass.students} | set(handed_in) if c != s.name
                           and variants.of(assignment, c) == other)
            names = (f"the variant of {', '.join(whose)}" if whose else "a variant no one in this class has")
            flags.append(Flag(s.name, where_of(registry.get(slug), layout), "another student's variant",
                              f"answers {slug} with the numbers of variant {other}, {names}, not with their own "
                              f"(variant {own}); see {s.name}'s feedback"))
    return flags


def shared_variants(klass: analysis.Class) -> dict:
    """slug -> the pairs of students graded on one variant of it (a class graded with variants; else {})."""
    pairs = {}
    for slug in sorted({slug for s in klass.students for slug in s.variants}):
        by = defaultdict(list)
        for s in klass.students:
            if slug in s.variants:
                by[s.variants[slug]].append(s.name)
        pairs[slug] = [p for names in by.values() for p in combinations(sorted(names), 2)]
    return {slug: p for slug, p in pairs.items() if p}


def section(found: list, klass: analysis.Class | None = None, names: dict | None = None) -> str:
    """The report's HTML section: each flagged pair with its evidence (``found``: copying.json); and, for a
    class graded with variants, the pairs that share one (whose equal answers variants cannot tell apart).
    ``names``: student -> "Last, First", where a roster says (roster.who shows a student)."""
    e, names = html.escape, names or {}
    parts = ["<h2 id=copying>Possible copying</h2><p class=muted>Pairs whose answers share a rare wrong behaviour, "
             "or whose code is the same up to names, comments and layout (the stub's lines left out). For a "
             "person to look at: they changed no score, and two students can make the same mistake alone. A flag "
             "is symmetric: it names two students and says nothing of who copied from whom, since the evidence "
             "reads the same either way round.</p>"]
    shared = shared_variants(klass) if klass is not None else {}
    if shared:
        parts.append("<p class=muted>Same variant: with 64 variants, some students share one and so share every "
                     "right answer; for them, one answer handed in twice in two exact forms (1/2 and 0.5) is no "
                     "flag, since it is what two honest students write. Only the code comparison above can show "
                     "copying between them. " + "; ".join(
                         f"{e(slug)}: {len(p)} pair(s) ({', '.join(_pair(a, b, names) for a, b in p[:6])}"
                         f"{', …' if len(p) > 6 else ''})" for slug, p in shared.items()) + ".</p>")
    rows = []
    for item in found if isinstance(found, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("skipped"):
            rows.append(f"<p><b>{e(str(item.get('kind')))}</b>: not looked for: {e(str(item['skipped']))}</p>")
        elif item.get("kind") == "shared rare mistake":
            a, b = item["students"]
            lines = "".join(
                f"<li>{e(x['exercise'])}: both in group <code>{e(x['group'])}</code>, {x['size']} of {x['of']} "
                f"files{' (' + e(x['mistake']) + ')' if x.get('mistake') else ''}"
                + "".join(f"<pre class=ex>{e(c.get('call', ''))}\n→ {e(c.get('answer', ''))}</pre>"
                          for c in x.get("shown", [])[:1]) + "</li>" for x in item["exercises"])
            rows.append(f"<h3>{_pair(a, b, names)}: shared rare mistake (rarity {item['score']:.1f})</h3>"
                        f"<ul>{lines}</ul>")
        elif item.get("kind") == "similar code":
            a, b = item["students"]
            sides = "".join(f"<div><b>{roster.who(one, names)}</b><pre class=side>" + "".join(
                f"<mark>{e(t)}</mark>" if hit else e(t) for t, hit in pieces) + "</pre></div>"
                for one, pieces in zip((a, b), item["code"]))
            cut = " (each compared on its first 30,000 characters)" if any(item.get("cut", [])) else ""
            rows.append(f"<h3>{_pair(a, b, names)}: similar {e(item['exercise'])} code "
                        f"({100 * item['similarity']:.0f}% matches{cut})</h3><div class=pair>{sides}</div>")
    return "".join(parts) + ("".join(rows) if rows else "<p>None.</p>")


def _pair(a: str, b: str, names: dict) -> str:
    """Two students as HTML, each by the roster's name with the id beside it, or by the id (roster.who)."""
    return f"{roster.who(a, names)} and {roster.who(b, names)}"
