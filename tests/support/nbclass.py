"""nbgrader notebooks of a made-up class (make_class.py's mix): a copy of the course with every
assignment generated, submissions with their answer cells filled, and the scores nbgrader's autograde
and ``attn-grade grade`` give them. tests/test_nbgrade.py builds its classes with these, and
bench/notebooks.py times the two graders on them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .make_class import MIX, sources

ROOT = Path(__file__).resolve().parents[2]

TIMESTAMP = "2030-01-01 12:00:00.000000 UTC"


def _exe(name):
    found = Path(sys.executable).with_name(name)
    return str(found) if found.exists() else name


def _env():
    """nbgrader runs ``alembic`` from PATH when it makes a gradebook: put this venv's bin first."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def make_course(dest: Path) -> Path:
    """A copy of the nbgrader course at ``dest`` with every assignment generated; return ``dest``.

    course/source/ is committed and tests/test_course.py keeps it equal to a fresh build."""
    from graders import registry
    from graders.classroom.release.public import copy_public

    dest.mkdir(parents=True, exist_ok=True)
    real = ROOT / "course"
    shutil.copy(real / "nbgrader_config.py", dest / "nbgrader_config.py")
    for name in registry.ASSIGNMENTS:
        target = dest / "source" / name
        shutil.copytree(real / "source" / name, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("attn_checks", ".ipynb_checkpoints"))
        copy_public(target, "attn_checks")
    _generate(dest, registry.ASSIGNMENTS)
    return dest


def course_config(course: Path):
    """The course's nbgrader config, rooted at ``course``."""
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    config.merge(PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config())
    config.CourseDirectory.root = str(course)
    return config


def _generate(course: Path, names) -> None:
    """``nbgrader generate_assignment`` for each name, in this process (a process each is slow)."""
    from nbgrader.apps import NbGraderAPI

    os.environ["PATH"] = _env()["PATH"]
    api = NbGraderAPI(config=course_config(course))
    for name in names:
        done = api.generate_assignment(name, force=True)
        if not done["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{done.get('log', '')}{done.get('error', '')}")


def submit(course: Path, student: str, answers: dict, *, root: Path | None = None) -> Path:
    """Write submitted/<student>/<assignment>/<slug>.ipynb from the release.

    ``answers``: slug -> the answer cell's new source (str), a function taking
    the released notebook (dict) and returning it changed, or None (not
    submitted). Slugs not given get the untouched released notebook.
    """
    from graders import registry

    root = root or course / "submitted"
    for name in registry.ASSIGNMENTS:
        folder = root / student / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "timestamp.txt").write_text(TIMESTAMP)
        for ex in registry.of_assignment(name):
            answer = answers.get(ex.slug, "")
            if answer is None:
                continue
            nb = json.loads((course / "release" / name / f"{ex.slug}.ipynb").read_text(encoding="utf-8"))
            if callable(answer):
                nb = answer(nb)
            elif answer:
                set_answer(nb, ex.slug, answer)
            text = nb if isinstance(nb, str) else json.dumps(nb, indent=1)
            (folder / f"{ex.slug}.ipynb").write_text(text, encoding="utf-8")
    return root / student


def set_answer(nb: dict, slug: str, source: str) -> dict:
    for cell in nb["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{slug}-answer":
            cell["source"] = source
    return nb


def make_submissions(course: Path, students: int, seed: int = 2026) -> dict:
    """Submit ``students`` made-up students drawn like bench/make_class.py; return counts per kind."""
    from graders import registry

    rng = random.Random(seed)
    kinds, weights = zip(*MIX)
    counts = dict.fromkeys(kinds, 0)
    for i in range(students):
        answers = {}
        for ex in registry.EXERCISES:
            kind = rng.choices(kinds, weights)[0]
            src = rng.choice(sources(ex.slug)[kind])
            counts[kind] += 1
            answers[ex.slug] = src.read_text(encoding="utf-8") if src is not None else ""
        submit(course, f"student_{i:03d}", answers)
    return counts


def nbgrader_autograde(course: Path, assignments=None, students=()) -> float:
    """Run the real ``nbgrader autograde`` (kernels execute every cell); return the wall time.
    The course refuses nbgrader's own autograde unless ATTN_UNHARDENED=1 (graders/classroom/nbgrader/nbguard.py)."""
    from graders import registry

    start = time.perf_counter()
    for name in assignments or registry.ASSIGNMENTS:
        for who in students or [None]:
            cmd = [_exe("nbgrader"), "autograde", name, "--force", "--log-level=ERROR"]
            subprocess.run(cmd + ([f"--student={who}"] if who else []), cwd=course, check=True,
                           capture_output=True, env={**_env(), "ATTN_UNHARDENED": "1"})
    return time.perf_counter() - start


def nbgrader_scores(course: Path) -> dict:
    """(student, slug) -> nbgrader's auto score for the test cells of that notebook."""
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    where = CourseDirectory(config=course_config(course))
    scores = {}
    with Gradebook(where.db_url, where.course_id) as gb:
        for assignment in gb.assignments:
            for sub in assignment.submissions:
                for nb in sub.notebooks:
                    scores[(sub.student.id, nb.name)] = sum(
                        g.auto_score or 0.0 for g in nb.grades if g.cell_type == "code")
    return scores


def our_scores(out: Path) -> dict:
    scores = {}
    for path in out.glob("students/*/results.json"):
        for t in json.loads(path.read_text(encoding="utf-8"))["tests"]:
            key = (path.parent.name, t["exercise"])
            scores[key] = scores.get(key, 0.0) + float(t["score"])
    return scores
