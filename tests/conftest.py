"""Test-wide settings: recorded plans go to a private folder of this run, not the user's cache;
each test remembers its own passes (graders/grading/plans.py): a pass remembered by one
test must not spare another test's checks from running; and the learner's commands find
their resident zygote (graders/sandbox/resident.py) in a folder of this test process's own,
which is ended when the tests are. At the end, the run shows the feedback figures its graders'
tests recorded (mutants caught, diagnoses shown, wrong hints; recorded by test_graders.py and test_diagnoses.py)."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("ATTN_GRADE_CACHE", tempfile.mkdtemp(prefix="attn-grade-test-cache-"))
# per process (each pytest-xdist worker): one that finishes first must not end another's zygote
os.environ["ATTN_GRADE_RUNTIME"] = tempfile.mkdtemp(prefix="attn-rt-")


# What a quick run (plain ``pytest``) leaves out; ``python3 tasks.py test`` and CI run everything.
SYSTEM = {"test_lessons", "test_nbgrader", "test_nbcourse", "test_notebook_answer", "test_feedback_wraps",
          "test_classreport", "test_settings"}  # more than Python: Jupyter kernels, nbgrader, Chromium, other users
SLOW = {"test_hostile", "test_hostile_batch", "test_busy_machine", "test_report_counts", "test_gradescope",
        "test_batch", "test_plancache", "test_resident", "test_cluster", "test_cluster_more",
        "test_cluster_security", "test_comments", "test_copying", "test_private",
        "test_variants_course"}  # whole classes graded, zygotes kept and ended


def pytest_collection_modifyitems(items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if module in SYSTEM:
            item.add_marker(pytest.mark.system)
        if module in SLOW:
            item.add_marker(pytest.mark.slow)


RECORDED = {"mutant": [], "catalogue": [], "right": []}  # in the process that reports (with pytest-xdist, the controller)


def pytest_runtest_logreport(report):
    if report.when == "call":
        for name, value in report.user_properties:
            if name in RECORDED:
                RECORDED[name].append(value)


def pytest_terminal_summary(terminalreporter):
    lines = (corpus_figures(RECORDED["mutant"]) + right_figures(RECORDED["right"])
             + catalogue_figures(RECORDED["catalogue"]))
    if lines:
        terminalreporter.write_sep("-", "feedback figures")
        for line in lines:
            terminalreporter.write_line(line)


def corpus_figures(rows) -> list[str]:
    """The summary's lines: mutants caught (overall, publicly), declared diagnoses shown, wrong hints."""
    if not rows:
        return []
    n = len(rows)

    def count(key, among=rows):
        return sum(bool(r[key]) for r in among)

    declared = [r for r in rows if r["declared"]]
    hidden = sorted(r["name"] for r in rows if r["caught"] and not r["public"])

    def share(k):
        return f"{k} of {n} ({100 * k / n:.0f} %)"

    named = count("shown", declared)  # a mutant whose declared diagnosis its feedback shows
    return [f"mutants: {n} in {len({r['slug'] for r in rows})} exercises",
            f"caught: {share(count('caught'))}; on the public checks: {share(count('public'))} (target >= 95 %)"
            + (f" (by hidden checks only: {', '.join(hidden)})" if hidden else ""),
            f"mistakes named: {share(named)} (target >= 70 %); of the {len(declared)} that declare a "
            f"diagnosis, {len(declared) - named} not shown",
            f"hints naming a mistake not made (must be 0): {sum(r['wrong'] for r in rows)}"]


def right_figures(rows) -> list[str]:
    """The summary's lines for right code (alternatives and the corpus): how many lost points, how many
    were given a hint (each must be 0)."""
    if not rows:
        return []
    losing = sorted(r["name"] for r in rows if r["lost"] > 0)
    hinted = sorted(r["name"] for r in rows if r["wrong"] > 0)
    return [f"right answers losing points (must be 0): {len(losing)} of {len(rows)}"
            + (f" ({', '.join(losing)})" if losing else ""),
            f"right answers told of a mistake (must be 0): {len(hinted)} of {len(rows)}"
            + (f" ({', '.join(hinted)})" if hinted else "")]


def catalogue_figures(rows) -> list[str]:
    """The summary's line: how many mistakes the catalogues can name, per exercise."""
    per = {}
    for r in rows:
        per[r["slug"]] = per.get(r["slug"], 0) + r["named"]
    return [f"mistakes the catalogues can name: {sum(per.values())} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(per.items()))})"] if per else []


def pytest_sessionfinish(session):
    from graders.sandbox import resident

    resident.stop(Path(os.environ["ATTN_GRADE_RUNTIME"]))
    shutil.rmtree(os.environ["ATTN_GRADE_RUNTIME"], ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_passes(tmp_path_factory, monkeypatch):
    from graders.grading.plancache import PassStore
    from graders.grading.settings import Settings
    from support.caches import patch_caches

    # A grading given no caches (grade_file called by a test) shares this run's plans on disk, as
    # the commands the tests start do: each plan is recorded once per run, not once per process.
    patch_caches(monkeypatch, Settings.from_environ().plans, passes=PassStore(tmp_path_factory.mktemp("passes")))


@pytest.fixture
def open_folder():
    """A folder every user may enter, as /autograder is (pytest's own tmp folders are closed to other
    users): for the tests that run a command as another user."""
    folder = Path(tempfile.mkdtemp(prefix="attn-open-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
