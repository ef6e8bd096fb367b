"""A random generator whose normal draws are chosen: :class:`ChosenRng`, for the graders' checks.

A check that needs every draw equal (the saturation exercise's overflow check: equal draws make
every score the same, large number) passes a ``ChosenRng(value)``. It crosses the wire as data:
``wire.encode`` sends the MT19937 state computed here (``state_for``), and the worker only
validates it and hands the student ``np.random.Generator(MT19937)`` with that state set.

How the state is chosen. MT19937 keeps 624 32-bit words and a position. While the position is
below 624 it does not twist: each output is the next word, *tempered* (four shift-and-xor
steps). So with position 0 the next 624 outputs are the tempered key words, and choosing the
outputs means untempering them (``untemper``). NumPy's ``Generator.standard_normal`` (float64)
takes one 64-bit draw per number (two outputs, the first the high half) and runs a ziggurat:
the low 8 bits pick a layer ``idx``, the next bit the sign, the next 52 bits ``rabs``, and when
``rabs`` is below the layer's bound the number is ``rabs * w[idx]``, with no more draws. The
search (``word_for``) reads the layer widths ``w`` from NumPy itself, picks a 64-bit word whose
fast-path number is exactly ``value``, and checks it against NumPy: repeated 312 times, it gives
``value`` 312 times and uses up exactly the 624 outputs. ``normal(loc, scale)`` scales the same
draws (loc + scale * value).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

WORDS = 624  # MT19937's state, in 32-bit words
DRAWS = WORDS // 2  # standard normals the chosen prefix holds: one 64-bit draw (two outputs) each
MASK = 0xFFFFFFFF


def untemper(y: int) -> int:
    """The state word that MT19937 tempers into the output ``y`` (a 32-bit int).

    Tempering is ``y ^= y >> 11; y ^= (y << 7) & 0x9D2C5680; y ^= (y << 15) & 0xEFC60000;
    y ^= y >> 18``. Each step is invertible, and they are undone in the opposite order: a right
    shift by 18 or a left shift by 15 reaches past half the word, so applying the step again
    undoes it; for the shifts by 7 and by 11 the bits are recovered a shift's width at a time,
    by applying the step to the partial result until every bit is known (5 and 3 rounds)."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    x = y
    for _ in range(5):
        x = y ^ ((x << 7) & 0x9D2C5680)
    y = x & MASK
    x = y
    for _ in range(3):
        x = y ^ (x >> 11)
    return x & MASK


def key_for(outputs) -> list:
    """The key words whose next outputs, from position 0, are ``outputs`` (32-bit ints, at most 624)."""
    outputs = list(outputs)
    if len(outputs) > WORDS or not all(isinstance(o, int) and 0 <= o <= MASK for o in outputs):
        raise ValueError(f"MT19937 outputs are at most {WORDS} ints in [0, 2**32)")
    return [untemper(o) for o in outputs]


def _repeated(word: int) -> dict:
    """The state whose next DRAWS 64-bit draws (``next_uint64``: two outputs, high half first) are all ``word``."""
    return {"key": key_for([word >> 32, word & MASK]) * DRAWS, "pos": 0}


def generator(state: dict, gen: np.random.Generator | None = None) -> np.random.Generator:
    """A generator with the MT19937 state ``{"key": [...], "pos": n}``, as the worker builds it
    (``gen``: an MT19937 generator to set instead of a new one; seeding a new one costs more)."""
    gen = gen or np.random.Generator(np.random.MT19937(0))
    gen.bit_generator.state = {"bit_generator": "MT19937",
                               "state": {"key": np.array(state["key"], dtype=np.uint32), "pos": state["pos"]}}
    return gen


def _word(rabs: int, negative: bool, idx: int) -> int:
    return (rabs << 9) | (int(negative) << 8) | idx


@lru_cache(maxsize=1)
def _widths() -> tuple:
    """The ziggurat's 256 layer widths, read from NumPy (rabs = 1); a layer whose draw was not on
    the fast path (it used more than its one 64-bit draw) gets NaN, and no value is sought there."""
    widths, gen = [], None
    for idx in range(256):
        gen = generator(_repeated(_word(1, False, idx)), gen)
        x = float(gen.standard_normal())
        widths.append(x if gen.bit_generator.state["state"]["pos"] == 2 else math.nan)
    return tuple(widths)


@lru_cache(maxsize=None)
def word_for(value: float) -> int:
    """A 64-bit draw that ``standard_normal`` turns into exactly ``value``, on its fast path."""
    if not math.isfinite(value):
        raise ValueError(f"no draw gives {value!r}")
    target = abs(value)
    for idx, width in enumerate(_widths()):
        if math.isnan(width) or target / width >= 2 ** 52:
            continue
        rabs = round(target / width)
        for r in (rabs, rabs - 1, rabs + 1):
            if 0 <= r < 2 ** 52 and r * width == target and _repeats(word := _word(r, value < 0, idx), value):
                return word
    raise ValueError(f"no single draw of NumPy's ziggurat gives exactly {value!r}")


def _repeats(word: int, value: float) -> bool:
    """``word`` repeated: DRAWS normals equal to ``value``, using up exactly the chosen outputs."""
    gen = generator(_repeated(word))
    ok = bool(np.all(gen.standard_normal(DRAWS) == value))
    return ok and gen.bit_generator.state["state"]["pos"] == WORDS


def state_for(value: float) -> dict:
    """The MT19937 state whose first DRAWS standard normals are all ``value``."""
    return _repeated(word_for(value))


@dataclass(frozen=True)
class ChosenRng:
    """An argument that the worker turns into a generator whose first DRAWS (312) standard normal
    draws are all ``value`` (``normal(loc, scale)``'s: loc + scale * value); later ones are not."""

    value: float
    DRAWS: ClassVar[int] = DRAWS

    def __post_init__(self):
        word_for(float(self.value))  # a value no draw gives is refused here, not in the worker

    def __repr__(self):
        return f"<a generator whose normal draws are all {self.value!r}>"
