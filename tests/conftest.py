"""Test-wide settings: recorded plans go to a private folder of this run, not the user's cache,
and each test remembers its own passes (graders/grading/plans.py): a pass remembered by one
test must not spare another test's checks from running."""

import os
import tempfile

import pytest

os.environ.setdefault("ATTN_GRADE_CACHE", tempfile.mkdtemp(prefix="attn-grade-test-cache-"))


@pytest.fixture(autouse=True)
def _own_passes(tmp_path_factory, monkeypatch):
    from graders.grading import engine
    from graders.grading.plancache import PassStore

    monkeypatch.setattr(engine, "PASSES", PassStore(tmp_path_factory.mktemp("passes")))
