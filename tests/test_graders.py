"""One generic test over the registry: every grader against its solution,
its stub, its mutants (realistic wrong answers) and its correct alternatives.

A mutant file may carry lines ``# diagnosis: <words>``; the feedback for that
mutant must then contain those words (the grader named the mistake).
"""

from pathlib import Path

import pytest

from graders import registry
from graders.grading.engine import ROOT, checks_of, grade_file

SLUGS = [e.slug for e in registry.EXERCISES]
HERE = Path(__file__).parent
MUTANTS = sorted((HERE / "mutants").glob("*/*.py"))
ALTERNATIVES = sorted((HERE / "alternatives").glob("*/*.py"))


def _messages(result):
    return "\n".join(c.message for c in result.checks)


def _no_grader_errors(result):
    errors = [f"{c.name}: {c.message}" for c in result.checks if c.outcome == "error"]
    assert not errors, "the grader itself failed:\n" + "\n".join(errors)


@pytest.mark.parametrize("slug", SLUGS)
def test_check_points_add_up_to_the_registry(slug):
    checks = checks_of(slug)
    assert checks, f"graders/{slug}.py defines no checks"
    assert sum(c.spec.points for c in checks) == registry.get(slug).points
    assert any(c.spec.hidden for c in checks) and any(not c.spec.hidden for c in checks)
    assert len({c.spec.name for c in checks}) == len(checks), "check names must be unique"
    for c in checks:
        assert set(c.spec.uses) <= set(registry.get(slug).functions), c.spec.name


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_checks_live_only_in_graders_hidden(slug):
    """Students get graders/ without hidden/: a hidden check left in graders/<slug>.py would ship."""
    public = checks_of(slug, hidden=False)
    assert public and not any(c.spec.hidden for c in public), f"graders/{slug}.py holds a hidden check"
    hidden = checks_of(slug)[len(public):]
    assert hidden and all(c.spec.hidden for c in hidden), f"graders/hidden/{slug}.py holds a public check"
    assert {c.__module__ for c in hidden} == {f"graders.hidden.{slug}"}


@pytest.mark.parametrize("slug", SLUGS)
def test_reference_solution_scores_full_marks(slug):
    result = grade_file(slug, ROOT / "solutions" / f"{slug}.py")
    _no_grader_errors(result)
    lost = [f"{c.name}: {c.message}" for c in result.checks if not c.passed]
    assert result.points == result.max_points == registry.get(slug).points, "\n".join(lost)


@pytest.mark.parametrize("slug", SLUGS)
def test_stub_scores_zero_without_crashing_the_grader(slug):
    result = grade_file(slug, ROOT / "exercises" / f"{slug}.py")
    assert not result.problem, result.problem  # the stub imports cleanly
    _no_grader_errors(result)
    assert result.points == 0, [(c.name, c.points) for c in result.checks if c.points]
    assert all(c.message for c in result.checks), "every failed check must say why"


@pytest.mark.parametrize("path", MUTANTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_mutant_loses_marks(path):
    slug = path.parent.name
    result = grade_file(slug, path)
    _no_grader_errors(result)
    assert result.points < result.max_points, f"{path.name} kept full marks"
    text = _messages(result)
    for line in path.read_text().splitlines():
        if line.startswith("# diagnosis:"):
            words = line.split(":", 1)[1].strip()
            assert words in text, f"expected the feedback to say {words!r}; it said:\n{text}"


@pytest.mark.parametrize("path", ALTERNATIVES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_correct_alternative_keeps_full_marks(path):
    result = grade_file(path.parent.name, path)
    _no_grader_errors(result)
    lost = [f"{c.name}: {c.message}" for c in result.checks if not c.passed]
    assert result.points == result.max_points, "\n".join(lost)


@pytest.mark.parametrize("slug", SLUGS)
def test_corpus_has_enough_mutants_and_alternatives(slug):
    assert len(list((HERE / "mutants" / slug).glob("*.py"))) >= 5
    assert len(list((HERE / "alternatives" / slug).glob("*.py"))) >= 2


@pytest.mark.parametrize("slug", SLUGS)
def test_grading_twice_gives_identical_results(slug):
    path = next(iter(sorted((HERE / "mutants" / slug).glob("*.py"))), ROOT / "solutions" / f"{slug}.py")
    first, second = grade_file(slug, path), grade_file(slug, path)
    assert [(c.name, c.points, c.outcome, c.message) for c in first.checks] == \
           [(c.name, c.points, c.outcome, c.message) for c in second.checks]
