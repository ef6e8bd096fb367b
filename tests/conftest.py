"""Test-wide settings: recorded plans go to a private folder of this run, not the user's cache;
each test remembers its own passes (graders/grading/plans.py): a pass remembered by one
test must not spare another test's checks from running; and the learner's commands find
their resident zygote (graders/sandbox/resident.py) in a folder of this test process's own,
which is ended when the tests are."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("ATTN_GRADE_CACHE", tempfile.mkdtemp(prefix="attn-grade-test-cache-"))
# per process (each pytest-xdist worker): one that finishes first must not end another's zygote
os.environ["ATTN_GRADE_RUNTIME"] = tempfile.mkdtemp(prefix="attn-rt-")


def pytest_sessionfinish(session):
    from graders.sandbox import resident

    resident.stop(Path(os.environ["ATTN_GRADE_RUNTIME"]))
    shutil.rmtree(os.environ["ATTN_GRADE_RUNTIME"], ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_passes(tmp_path_factory, monkeypatch):
    from graders.grading import engine
    from graders.grading.plancache import PassStore

    monkeypatch.setattr(engine, "PASSES", PassStore(tmp_path_factory.mktemp("passes")))
