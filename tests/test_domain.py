"""Every call a check makes lies inside what its stub promises (graders/kit/domain.py).

The first rule of a grader: a check may only use inputs the stub and the lesson promise. Each
grader states its exercise's promise once, as ``DOMAIN``; here every check of the exercise is
run against the reference, the right alternatives, the corpus and the mutants while every call
that reaches the student's code (or the reference, while a plan is recorded) is written down,
and each must lie inside its function's domain."""

from pathlib import Path

import numpy as np
import pytest

from graders import registry
from graders.grading import plans
from graders.grading.engine import ROOT, grade_file
from graders.kit import Domain, entries_within, scores_within
from graders.sandbox import submission

HERE = Path(__file__).parent
SLUGS = [e.slug for e in registry.EXERCISES]


def _files(slug):
    return [ROOT / "solutions" / f"{slug}.py", *sorted((HERE / "alternatives" / slug).glob("*.py")),
            *sorted((HERE / "corpus" / slug).glob("*.py")), *sorted((HERE / "mutants" / slug).glob("*.py"))]


def _recording(monkeypatch, seen):
    """Write down (func, args, kwargs) of every call, live, replayed or recorded."""
    for owner in (submission.Submission, plans.Replay, plans.Recording):
        original = owner._call

        def spy(self, func, args, kwargs, after, original=original):
            seen.append((func, args, dict(kwargs)))
            return original(self, func, args, kwargs, after)

        monkeypatch.setattr(owner, "_call", spy)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_call_of_every_check_lies_inside_the_stubs_promise(slug, monkeypatch):
    domain = getattr(__import__(f"graders.{slug}", fromlist=["DOMAIN"]), "DOMAIN", None)
    assert isinstance(domain, Domain), f"graders/{slug}.py states no DOMAIN (kit/domain.py)"
    seen = []
    _recording(monkeypatch, seen)
    for path in _files(slug):
        grade_file(slug, path)
    assert seen, "no call was written down: the spy missed them"
    outside = sorted({f"{func}: {problem}" for func, args, kwargs in seen
                      if (problem := domain.outside(func, args, kwargs))})
    assert not outside, "calls outside the stub's promise:\n" + "\n".join(outside)


def test_the_domain_names_a_probe_past_the_thousands():
    """What the attention check probed with until issue 34: scores near ±1e300."""
    from graders.attention import DOMAIN

    q, k = np.array([[-1e150]]), np.array([[1e150], [1.5e150], [3e150]])
    assert "magnitude 3e+300, beyond 10000" in DOMAIN.outside("attention", (q, k, np.eye(3)), {"mask": None})
    assert "beyond 10000" in scores_within(np.array([[200.0]]), np.array([[60.0]]))
    assert scores_within(np.array([[100.0]]), np.array([[-100.0]])) is None  # -10000: the edge is inside
    q, k = np.ones((1, 4)) * 80, np.ones((2, 4)) * 80
    assert scores_within(q, k, heads=2) is None  # 2 · 6400 / √2 = 9051 per head of width 2
    assert "1.28e+04" in scores_within(q, k)  # 4 · 6400 / √4 in one head of width 4
    assert "beyond float64's range" in scores_within(np.array([[1e200]]), np.array([[1e200]]))
    assert entries_within(np.array([1e4, -np.inf])) is None
    assert "NaN or infinite" in entries_within(np.array([np.inf, 0.0]))
