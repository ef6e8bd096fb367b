"""Identical answers: the ones a person should look at (the ``identical answers`` flag).

Two files of one exercise are identical when their tokens are, comments and
layout left out (codescan.tokens). Identical text is a sign of copying only
where the students could have written otherwise, so the flag weighs what they
wrote themselves: the answer's tokens that the stub does not give (``own``:
those left once the longest runs the answer shares with the stub are taken
out, for each form of the stub: the .py file, and the released notebook's
answer cell where the release is known). A notebook's untouched answer cell is
the .py stub less its docstrings and messages, so its own part is nothing
whether the release is known or not, in every layout.

* Nothing of their own (the stub untouched, in any form): never a flag.
* OWN_TOKENS or more of their own: a flag, right answer or wrong: that much
  code is not written alike by chance.
* Fewer: a flag only when the answer is wrong in its values (it answers some
  recorded call with another value than the reference, grading/behaviour.py,
  and is not at full marks): two students who share a short wrong answer share
  the mistake and its spelling. A short right answer is what the exercise
  forces, and every right answer written as briefly is the same one
  (variance_proof's four exact values written into the stub); one wrong only
  in raising or hanging is the stub's functions left as they were.

Where the results do not say (nothing was graded, or none of those students),
a short identical answer is flagged all the same: a person looks. copying.find
makes these flags, with the class's results; the flag changes no score.
"""

from __future__ import annotations

import difflib
from collections import defaultdict

from ..report import groups
from .codescan import digest, tokens
from .integrity import Flag

OWN_TOKENS = 20  # fewer tokens of one's own, alike, are what a right answer looks like
EXACT_UP_TO = 2_000  # own tokens beyond these are not counted exactly: "more than 2,000"
NAMED = 5  # classmates named in one flag; the rest are counted


def flags(codes: dict, stubs: dict, verdicts: dict | None = None) -> list[Flag]:
    """The identical-answers flags of ``codes`` (slug -> {student: (where, answer)}, from integrity.scan);
    ``stubs``: slug -> the stub's texts (integrity.stub_texts); ``verdicts``: (slug, student) -> whether
    the answers have no wrong value (``verdicts_of``), or None where the results do not say."""
    found = []
    for slug, files in sorted(codes.items()):
        alike = defaultdict(list)
        for who, (where, text) in sorted(files.items()):
            try:
                mine = tokens(text)
            except Exception:  # noqa: BLE001 - a file the tokenizer cannot take is compared with none
                continue
            if mine is not None:
                alike[digest(mine)].append((who, where, mine))
        forms = [t for t in (tokens(s) for s in stubs.get(slug, [])) if t is not None]
        for owners in alike.values():
            if len(owners) < 2:
                continue
            n = own(owners[0][2], forms)
            known = [verdicts[slug, who] for who, _, _ in owners if (slug, who) in (verdicts or {})]
            wrong = not all(known)  # by the results of those of them graded
            if n == 0 or (n < OWN_TOKENS and known and not wrong):
                continue
            what = f"wrong {slug} answer" if n < OWN_TOKENS and known else f"{slug} answer"
            size = f"more than {EXACT_UP_TO:,}" if n > EXACT_UP_TO else f"{n:,}"
            for who, where, _ in owners:
                found.append(Flag(who, where, "identical answers", f"the same {what} as "
                                  f"{_names([o for o, _, _ in owners if o != who])} ({size} tokens beyond the stub)"))
    return found


def own(answer: list, forms: list) -> int:
    """How many of the ``answer``'s tokens no form of the stub gives: those outside the longest runs it
    shares with the nearest form. Past EXACT_UP_TO a bound is enough (and the comparison stays cheap)."""
    best = len(answer)
    for stub in forms:
        if len(answer) - len(stub) > EXACT_UP_TO:
            best = min(best, len(answer) - len(stub))  # at least this many: the stub matches at most itself
            continue
        runs = difflib.SequenceMatcher(None, answer, stub, autojunk=False).get_matching_blocks()
        best = min(best, len(answer) - sum(r.size for r in runs))
    return best


def verdicts_of(klass) -> dict:
    """(slug, student) -> whether the file has no wrong value, for each graded file of the class: right
    (at full marks, or answering every recorded call as the reference does), or wrong only in raising or
    hanging (the stub's raise left in some function)."""
    found = {}
    for slug, gs in groups.of(klass).items():
        for g in gs:
            found.update({(slug, who): not g.values for who in g.members})
    points = {e.slug: e.points for e in klass.exercises}
    for s in klass.students:
        for slug, p in s.scores.items():
            if slug in points:
                full = p >= points[slug] - 1e-9
                found[slug, s.name] = full or found.get((slug, s.name), False)
    return found


def _names(others: list) -> str:
    """"bob", "bob and cy", "bob, cy, dee, eve, fay and 3 more"."""
    shown = others[:NAMED] + ([f"{len(others) - NAMED} more"] if len(others) > NAMED else [])
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
