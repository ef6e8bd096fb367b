"""Giving a test's gradings caches of its own: ``patch_caches(monkeypatch, passes=..., ...)``.

Grading reuses what it recorded through ``graders.grading.engine.caches`` (the
command that starts hands it a folder; a test calling grade_file gets the
in-memory ones). A test that needs other plans, verdicts or passes replaces
those parts for every grading it starts, in this process and in the job
processes it forks.
"""

from __future__ import annotations

from dataclasses import replace


def patch_caches(monkeypatch, default=None, **parts) -> None:
    """Every ``engine.caches(folder)`` from now on, with ``parts`` (plans, verdicts, passes) replaced;
    ``default``: the folder of a grading given none (else in memory only)."""
    from graders.grading import engine

    base = engine.caches
    monkeypatch.setattr(engine, "caches", lambda folder=None: replace(base(folder or default), **parts))
