"""What several tests grade and compare: the reference, a few mutants and alternatives per
exercise, and a result as the plain data two gradings must agree on."""

from pathlib import Path

from graders import registry
from graders.grading.engine import ROOT

HERE = Path(__file__).parent


def sample(slug: str, mutants: int | None, alternatives: int | None = 1) -> list[Path]:
    """The reference solution of ``slug``, its first ``mutants`` mutants and first
    ``alternatives`` correct alternatives (None: all of them)."""
    return [ROOT / "solutions" / f"{slug}.py",
            *sorted((HERE / "mutants" / slug).glob("*.py"))[:mutants],
            *sorted((HERE / "alternatives" / slug).glob("*.py"))[:alternatives]]


def cases(mutants: int | None, alternatives: int | None = 1, slugs=None) -> list[tuple[str, Path]]:
    """(slug, file) for every exercise (or ``slugs``), as ``sample`` chooses them."""
    return [(s, p) for s in (slugs or [e.slug for e in registry.EXERCISES]) for p in sample(s, mutants, alternatives)]


def view(result):
    """Each check's name, points, outcome and message: what must not change between gradings."""
    return [(c.name, c.points, c.outcome, c.message) for c in result.checks]


def submit(tmp_path: Path, slug: str, source: Path) -> Path:
    """``source`` saved as ``<slug>.py`` in a student folder below ``tmp_path``."""
    folder = tmp_path / "student"
    folder.mkdir(exist_ok=True)
    path = folder / f"{slug}.py"
    path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return path
