"""Texts for feedback: the same text whether remembered or not, and a memory that stays bounded."""

import numpy as np

from graders.kit import text
from graders.kit.text import Memo, show_array


def test_a_remembered_text_is_the_text_built_afresh():
    a = np.arange(12, dtype=np.float64).reshape(3, 4) / 7
    first = show_array(a)
    assert show_array(a.copy()) == first == text._show_array(a, 4)
    assert show_array(a.T) == text._show_array(a.T, 4)  # not contiguous: its own content, its own text


def test_arrays_with_the_same_bytes_but_another_shape_or_dtype_get_their_own_text():
    a = np.arange(6, dtype=np.float64)
    assert show_array(a.reshape(2, 3)) != show_array(a.reshape(3, 2))
    assert show_array(a.view(np.int64)) == text._show_array(a.view(np.int64), 4)


def test_large_arrays_are_summarised_and_never_remembered():
    before = len(text._SHOWN)
    for seed in range(5):
        a = np.random.default_rng(seed).standard_normal(200_000)
        assert show_array(a).startswith("<array of shape (200000,), min ")
    assert len(text._SHOWN) == before


def test_the_memory_of_texts_stays_within_its_budget():
    memo = Memo(10_000)
    for i in range(1_000):
        memo.put(i, "x" * 90, 100)
        assert memo.used <= memo.budget
    assert len(memo) == 100 and memo.get(999) == "x" * 90 and memo.get(0) is None
    memo.put("huge", "y", 20_000)  # larger than the whole budget: not kept
    assert memo.get("huge") is None and memo.used <= memo.budget


def test_many_distinct_small_arrays_keep_the_shown_texts_bounded():
    for i in range(20_000):
        show_array(np.full((2, 3), float(i)))
    assert text._SHOWN.used <= text._SHOWN.budget
