"""Each student their own numbers: which variant a student has, and the variant a check sees.

Variant 0 is the seed: the numbers the lessons teach (hand_scores' q = (1, 0)), what
every learner and every course without variants gets. A course that turns variants
on (``attn-grade grade --variants``, ``c.AttnGrade.variants``) gives each student one
of ``COUNT`` other variants, a public and deterministic function of the assignment and
the student's id (``of``): anyone can work out anyone's variant, which is the point
(the integrity report does, to see an answer copied from a classmate's variant).

What a variant changes is the exercise's own business: its grader turns the variant
into numbers (``pick`` chooses them from the exercise's candidates) and reads the
current variant with ``current()``; grading/engine.py sets it for one file with
``active``. Public checks confirm a variant's values through ``Digests``, a table of
one-way digests shipped in graders/variants/ (data only, a public room), so that they never
carry a variant's answers either.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import re
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

__all__ = ["current_variant", "pick_variant", "VariantDigests", "VARIANT_COUNT", "other_numbers"]  # kit's names

COUNT = 64  # variants besides the seed
TABLES = Path(__file__).resolve().parents[1] / "variants"  # graders/variants/<slug>.txt: shipped digest tables
_CURRENT = contextvars.ContextVar("attn_variant", default=0)


def of(assignment: str, student: str) -> int:
    """The variant of ``student`` (their id, as the course knows it) in ``assignment``: 1..COUNT."""
    h = hashlib.sha256(f"attn-grade variant\0{assignment}\0{canonical(student)}".encode("utf-8", "surrogatepass"))
    return 1 + int.from_bytes(h.digest()[:8], "big") % COUNT


def canonical(student: str) -> str:
    """An id as variants read it: without spaces around it, its letters in one Unicode form (NFC) and
    one case, so that "Ann" typed for "ann", or "zoë" typed for a folder named with a decomposed ë,
    is the same student with the same numbers."""
    return unicodedata.normalize("NFC", student.strip()).casefold()


def current() -> int:
    """The variant the file being graded is graded against (0: the seed)."""
    return _CURRENT.get()


@contextmanager
def active(variant: int):
    """Let ``variant`` be the current variant inside the block."""
    if not isinstance(variant, int) or not 0 <= variant <= COUNT:
        raise ValueError(f"no variant {variant!r}: variants are 0 (the seed) to {COUNT}")
    token = _CURRENT.set(variant)
    try:
        yield variant
    finally:
        _CURRENT.reset(token)


def pick(slug: str, variant: int, candidates):
    """Variant ``variant``'s numbers among ``candidates`` (0: None, the seed's own). The candidates
    are put in an order fixed by their digests, and variant n takes the n-th: the same numbers on
    every machine, and no two variants alike."""
    if variant == 0:
        return None
    ordered = _ordered(slug, tuple(candidates))
    if len(ordered) < COUNT:
        raise ValueError(f"{slug} has {len(ordered)} candidate variants, fewer than {COUNT}")
    return ordered[variant - 1]


@lru_cache(maxsize=None)
def _ordered(slug: str, candidates: tuple) -> tuple:
    """``candidates`` in the order their digests fix: made once per process, not at every pick."""
    return tuple(sorted(candidates, key=lambda c: hashlib.sha256(f"{slug} {c!r}".encode()).digest()))


class Digests:
    """A shipped table of one-way digests, ``width`` values for each variant 1..COUNT, packed as
    base64 of ``size``-byte digests: ``get(variant, i)`` is the digest of variant's value i."""

    def __init__(self, packed: str, width: int, size: int = 5):
        self.raw, self.width, self.size = base64.b64decode("".join(packed.split())), width, size
        if len(self.raw) != COUNT * width * size:
            raise ValueError(f"a digest table of {len(self.raw)} bytes; {COUNT * width * size} expected")

    @classmethod
    def shipped(cls, slug: str, width: int, size: int = 5) -> Digests:
        """The table of exercise ``slug``, from graders/variants/<slug>.txt."""
        return cls((TABLES / f"{slug}.txt").read_text(encoding="ascii"), width, size)

    def get(self, variant: int, index: int) -> str:
        at = ((variant - 1) * self.width + index) * self.size
        return self.raw[at:at + self.size].hex()

    @staticmethod
    def pack(rows, size: int = 5) -> str:
        """The packed text of ``rows`` (per variant 1..COUNT, its hex digests), 76 characters a line."""
        text = base64.b64encode(b"".join(bytes.fromhex(d[:2 * size]) for row in rows for d in row)).decode()
        return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))


def other_numbers(found: list) -> str:
    """A wrong answer's hint when it is right for other numbers than the student's: ``found``, the
    variants it is right for (0: the exercise's text). Said only to a student who has a variant; it
    replaces any guess at a mistake, since the answer is right, for other numbers. Its words when
    one other variant fits are what the integrity report reads (``OTHER_VARIANT``) to name the
    classmates whose variant it is; an answer several variants share names none of them."""
    others = [v for v in found if v != current()]
    if current() == 0 or not others:
        return ""
    if 0 in others:
        return " It is right for the numbers in the exercise's text, not for your own: work it out from yours."
    if len(others) > 1:
        return " It is right for other students' numbers, not for yours: work it out from your own numbers."
    return f" It is right for variant {others[0]}'s numbers, not for yours: work it out from your own numbers."


OTHER_VARIANT = re.compile(r"It is right for variant (\d+)'s numbers, not for yours")
current_variant, pick_variant, VariantDigests, VARIANT_COUNT = current, pick, Digests, COUNT  # kit's names
