"""Signs of copying between students, seen by behaviour and by structure, for a person to look at.

* ``shared rare mistake``: two students whose files of one exercise answer
  every recorded call alike *and* otherwise than the reference (the same group,
  groups.py), weighted by how rare that behaviour is in the class: a weight of
  log(n / k) for a group of k among the n files of the exercise that ran, halved
  when the feedback names a known mistake (those are the common ones, which the
  lessons teach). A pair is flagged when its weights, summed over the
  exercises, reach RARE (log 20: one behaviour that one file in twenty shows, or
  two less rare ones). Many students sharing a common mistake is no signal.
* ``similar code``: two files of one exercise whose code is the same up to
  names, comments, strings and layout, once the stub's own lines are left out.
  The code is tokenised and fingerprinted by winnowing, as MOSS does, with
  copydetect (pygments' tokens, names replaced by one letter); only
  fingerprints that few files of the class share count (a share COMMON of
  them, at least two and at most MOST, as MOSS ignores what more than ten
  programs share), so a line every solution needs is no signal. A pair is
  flagged when, with the stub's and the common fingerprints left out, the code
  they share covers SIMILAR of each file (copydetect's similarity) and at least
  MIN_TOKENS characters of filtered code.

Each flag goes to integrity.json (flags change no score); OUT/copying.json keeps
the evidence for report.html: the calls and the answers both gave, or the
matching spans of both files.
"""

from __future__ import annotations

import html
import io
import json
import math
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from .. import registry
from ..batch.outfiles import write_atomic
from . import analysis, groups
from .codescan import normalised
from .integrity import Flag, stub_texts

FILE = "copying.json"

RARE = math.log(20)
SIMILAR, MIN_TOKENS, COMMON, MOST = 0.7, 60, 0.05, 10
K, WINDOW = 25, 6  # copydetect's noise and guarantee thresholds of 25 and 30 characters


def find(out: Path, codes: dict, exercises, release=None) -> list:
    """Both kinds of flags for the class graded in OUT (``codes`` from integrity.scan); the evidence
    goes to OUT/copying.json."""
    stubs = {slug: stub_texts(registry.get(slug), release) for slug in exercises}
    flags, evidence = similar_code({k: v for k, v in codes.items() if k in stubs}, stubs)
    try:
        klass = analysis.load(out)
    except (OSError, ValueError, KeyError, IndexError) as exc:  # no gradebook: nothing was graded
        evidence.append({"kind": "shared rare mistake", "skipped": f"the class could not be read ({exc})"})
    else:
        more, seen = shared_mistakes(klass)
        flags, evidence = flags + more, evidence + seen
    write_atomic(Path(out) / FILE, json.dumps(evidence, indent=1, sort_keys=True) + "\n")
    return flags


def evidence(out: Path) -> list:
    """What OUT/copying.json holds, or [] if there is none to read."""
    try:
        found = json.loads((Path(out) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return found if isinstance(found, list) else []


def shared_mistakes(klass: analysis.Class) -> tuple[list, list]:
    """(flags, evidence) for the pairs whose shared wrong behaviours are rare enough."""
    found = groups.of(klass)
    scores, shared = defaultdict(float), defaultdict(list)
    for slug, gs in found.items():
        ran = sum(len(g.members) for g in gs)
        for g in gs:
            if not g.answers_otherwise or len(g.members) < 2:
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


def similar_code(codes: dict, stubs: dict) -> tuple[list, list]:
    """(flags, evidence) from ``codes``: slug -> {student: (where, text)}; ``stubs``: slug -> [stub texts]."""
    try:
        from copydetect import CodeFingerprint, compare_files
    except ImportError:
        return [], [{"kind": "similar code", "skipped": "copydetect is not installed (pip install copydetect, "
                                                        "or the project's 'course' extra)"}]
    flags, evidence = [], []
    for slug, files in sorted(codes.items()):
        boiler = sorted({h for text in stubs.get(slug, []) for h in _print(CodeFingerprint, text).hashes})
        prints = {}
        for who, (where, text) in sorted(files.items()):
            try:
                prints[who] = (where, _print(CodeFingerprint, text, boiler))
            except Exception:  # noqa: BLE001 - a file the tokeniser cannot take is simply not compared
                continue
        owners = defaultdict(set)
        for who, (_, fp) in prints.items():
            for h in fp.hashes:
                owners[h].add(who)
        few = max(2, min(MOST, math.ceil(COMMON * len(prints))))
        common = sorted(set(boiler) | {h for h, o in owners.items() if len(o) > few})
        shared = defaultdict(int)
        for o in owners.values():
            if 2 <= len(o) <= few:
                for pair in combinations(sorted(o), 2):
                    shared[pair] += 1
        pairs = [(a, b) for (a, b), n in sorted(shared.items())  # worth comparing: 30% of the smaller's fingerprints
                 if n >= 0.3 * min(len(prints[a][1].hashes), len(prints[b][1].hashes))]
        rare = {}  # student -> fingerprints without the stub's and the common ones (copydetect's boilerplate)
        for a, b in pairs:
            for who in (a, b):
                if who not in rare:
                    rare[who] = _print(CodeFingerprint, files[who][1], common)
            tokens, (sa, sb), (slices_a, slices_b) = compare_files(rare[a], rare[b])
            if min(sa, sb) < SIMILAR or tokens < MIN_TOKENS:
                continue
            if normalised(files[a][1]) == normalised(files[b][1]):
                continue  # flagged already as identical answers (integrity.py)
            share = f"{100 * min(sa, sb):.0f}%"
            flags += [Flag(me, where, "similar code", f"{slug}: {share} of the code matches {other}'s, up to names, "
                                                      f"comments and layout")
                      for me, where, other in ((a, files[a][0], b), (b, files[b][0], a))]
            evidence.append({"kind": "similar code", "exercise": slug, "students": [a, b],
                             "similarity": round(float(min(sa, sb)), 3),
                             "code": [_spans(files[a][1], slices_a), _spans(files[b][1], slices_b)]})
    return flags, evidence


def _print(CodeFingerprint, text, boiler=None):
    return CodeFingerprint("answer.py", K, WINDOW, boilerplate=boiler, fp=io.StringIO(text))


def _spans(code: str, slices) -> list:
    """``code`` cut into [text, matched] pieces by copydetect's slices (starts, ends)."""
    pieces, at = [], 0
    for start, end in sorted(zip(map(int, slices[0]), map(int, slices[1]))):
        start, end = max(start, at), min(end, len(code))
        if start > at:
            pieces.append([code[at:start], False])
        if end > start:
            pieces.append([code[start:end], True])
            at = end
    if at < len(code):
        pieces.append([code[at:], False])
    return pieces


def section(found: list) -> str:
    """The report's HTML section: each flagged pair with its evidence (``found``: copying.json)."""
    e = html.escape
    parts = ["<h2 id=copying>Possible copying</h2><p class=muted>Pairs whose answers share a rare wrong behaviour, "
             "or whose code is the same up to names, comments and layout (the stub's lines left out). For a "
             "person to look at: they changed no score, and two students can make the same mistake alone.</p>"]
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
            rows.append(f"<h3>{e(a)} and {e(b)}: shared rare mistake (rarity {item['score']:.1f})</h3><ul>{lines}</ul>")
        elif item.get("kind") == "similar code":
            a, b = item["students"]
            sides = "".join(f"<div><b>{e(who)}</b><pre class=side>" + "".join(
                f"<mark>{e(t)}</mark>" if hit else e(t) for t, hit in pieces) + "</pre></div>"
                for who, pieces in zip((a, b), item["code"]))
            rows.append(f"<h3>{e(a)} and {e(b)}: similar {e(item['exercise'])} code "
                        f"({100 * item['similarity']:.0f}% matches)</h3><div class=pair>{sides}</div>")
    return "".join(parts) + ("".join(rows) if rows else "<p>None.</p>")
