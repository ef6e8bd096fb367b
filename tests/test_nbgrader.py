"""Real nbgrader, end to end, on a fresh build of the course in a temporary folder.

generate_assignment (every assignment) -> the release holds no answer
(graders.classroom.release.leaks) -> submitted/ for three students -> autograde -> the expected
scores -> generate_feedback -> export. Each step is the real ``nbgrader``
command, run with this interpreter; the notebooks run in a real ipykernel
kernel of this interpreter (a kernelspec written for the test), so the hidden
cells find the instructor's ``graders``.

What is autograded, to keep the time down (every notebook's checks are also
run in process for every exercise in tests/test_course.py):
every assignment is generated and scanned, and one, part1_scores (exact
answers and a written proof graded by hand), is submitted by three students:
* "ref": each notebook as the source has it (solutions filled in): every
  automatic point;
* "stub": the release, untouched: zero;
* "mutant": a mutant's code in each answer cell: fewer points, and exactly
  the points the sandboxed engine gives that code.
The other assignments' notebooks differ only in their slug; tests/test_course.py
runs every notebook's answer, public and hidden cells in process for every
exercise. Autograding a notebook costs a few seconds (a kernel that imports
the graders), so each one more is felt.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from graders import registry  # noqa: E402
from graders.classroom.authoring.course import build  # noqa: E402
from graders.grading.engine import ROOT, grade_file  # noqa: E402

PART = "part1_scores"
MUTANT = {"hand_scores": "no_scaling", "variance_proof": "not_scaled"}
TIMINGS = {}


def _nbgrader(course: Path, env: dict, *args: str) -> str:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={course}"],
                          cwd=course, env=env, capture_output=True, text=True, timeout=600)
    TIMINGS[args[0]] = TIMINGS.get(args[0], 0.0) + time.perf_counter() - start
    assert proc.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}"
    assert "[ERROR]" not in proc.stderr and "| ERROR]" not in proc.stderr, proc.stderr
    return proc.stderr


def _environment(tmp: Path) -> dict:
    """This interpreter first on PATH (nbgrader runs ``alembic``), a python3 kernelspec of this
    interpreter first on JUPYTER_PATH, and no user configuration."""
    spec = tmp / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python"}), encoding="utf-8")
    env = dict(os.environ)
    env.update(PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
               JUPYTER_PATH=str(tmp / "jupyter"), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_DATA_DIR=str(tmp / "data"))
    return env


def _with_answer(notebook: Path, source: str) -> None:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    slug = notebook.stem
    for cell in nb["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == f"{slug}-answer":
            cell["source"] = source
    notebook.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The course after the whole pipeline; yields (course folder, gradebook scores, CSV rows)."""
    tmp = tmp_path_factory.mktemp("nbgrader")
    course, env = tmp / "course", _environment(tmp)
    build(course)
    _nbgrader(course, env, "generate_assignment", "--assignment=*")
    release = course / "release"
    submitted = course / "submitted"
    shutil.copytree(course / "source" / PART, submitted / "ref" / PART)  # the source notebooks as they are
    shutil.copytree(release / PART, submitted / "stub" / PART)
    shutil.copytree(release / PART, submitted / "mutant" / PART)
    for slug, name in MUTANT.items():
        _with_answer(submitted / "mutant" / PART / f"{slug}.ipynb",
                     (ROOT / "tests" / "mutants" / slug / f"{name}.py").read_text(encoding="utf-8"))
    _nbgrader(course, {**env, "ATTN_UNHARDENED": "1"}, "autograde", f"--assignment={PART}")  # nbguard.py
    _nbgrader(course, env, "generate_feedback", f"--assignment={PART}")
    _nbgrader(course, env, "export", f"--to={tmp / 'grades.csv'}")
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in ("ref", "stub", "mutant"):
            for e in registry.of_assignment(PART):
                nb = gb.find_submission_notebook(e.slug, e.assignment, student)
                scores[student, e.slug] = {g.name.rsplit("-", 1)[1]: (g.auto_score, g.max_score) for g in nb.grades}
    with open(tmp / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    print("nbgrader seconds:", {k: round(v, 1) for k, v in TIMINGS.items()})
    yield course, scores, rows, env


def test_release_holds_no_answer(graded):
    from graders.classroom.release.leaks import find_leaks

    course, _, _, _ = graded
    for assignment in registry.ASSIGNMENTS:
        assert (course / "release" / assignment / "attn_checks" / "grading" / "notebook.py").is_file()
    assert find_leaks(course / "release") == []
    assert find_leaks(course / "source"), "the scan must see the answers in the source notebooks"


def test_reference_earns_every_automatic_point(graded):
    _, scores, _, _ = graded
    for e in registry.of_assignment(PART):
        grades = scores["ref", e.slug]
        auto = grades["public"][0] + grades["hidden"][0]
        assert auto == e.points, (e.slug, grades)
        assert all(v[0] is None for k, v in grades.items() if k not in ("public", "hidden")), \
            "a written answer waits for a person"


def test_untouched_release_earns_nothing(graded):
    _, scores, _, _ = graded
    for e in registry.of_assignment(PART):
        grades = scores["stub", e.slug]
        assert all(got == 0 for got, _ in grades.values()), (e.slug, grades)


def test_mutant_scores_as_the_sandboxed_engine_does(graded):
    _, scores, _, _ = graded
    for slug, name in MUTANT.items():
        grades = scores["mutant", slug]
        result = grade_file(slug, ROOT / "tests" / "mutants" / slug / f"{name}.py")
        public = sum(c.points for c in result.checks if c.visibility == "public")
        hidden = sum(c.points for c in result.checks if c.visibility == "hidden")
        assert grades["public"][0] == pytest.approx(public) and grades["hidden"][0] == pytest.approx(hidden), \
            (slug, grades, public, hidden)
        assert public + hidden < registry.get(slug).points


def test_feedback_and_export(graded):
    course, _, rows, _ = graded
    for student in ("ref", "stub", "mutant"):
        for e in registry.of_assignment(PART):
            html = course / "feedback" / student / PART / f"{e.slug}.html"
            assert html.is_file() and "Public checks of" in html.read_text(encoding="utf-8")
    part = {r["student_id"]: r for r in rows if r["assignment"] == PART}
    assert set(part) == {"ref", "stub", "mutant"}
    full = sum(e.points for e in registry.of_assignment(PART))
    assert float(part["ref"]["raw_score"]) == full
    assert float(part["stub"]["raw_score"]) == 0
    assert 0 <= float(part["mutant"]["raw_score"]) < full


def test_nbgraders_own_autograde_is_refused_naming_the_hardened_command(graded, tmp_path):
    """In this course `nbgrader autograde` (and formgrader's Autograde button, which runs the same
    converter) would run notebooks unprotected: it refuses, and the gradebook is left as it was."""
    course, scores, _, env = graded
    course = Path(shutil.copytree(course, tmp_path / "course", symlinks=True))
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", f"--assignment={PART}", "--force",
                           f"--CourseDirectory.root={course}"], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode != 0
    said = (proc.stdout + proc.stderr).strip()
    assert "attn-grade grade" in said and "ATTN_UNHARDENED=1" in said
    assert "Traceback" not in said and len(said.splitlines()) == 1, said  # the refusal is the whole message
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for (student, slug), want in scores.items():
            nb = gb.find_submission_notebook(slug, PART, student)
            assert {g.name.rsplit("-", 1)[1]: (g.auto_score, g.max_score) for g in nb.grades} == want


@pytest.mark.parametrize("argv,environ,refused", [
    (["/v/bin/nbgrader", "autograde", "--assignment=ps1"], {}, True),
    (["/v/lib/site-packages/nbgrader/__main__.py", "autograde"], {}, True),
    (["/v/bin/jupyter-nbgrader", "autograde"], {}, True),
    (["/v/bin/nbgrader", "autograde", "--help"], {}, False),
    (["/v/bin/nbgrader", "autograde"], {"ATTN_UNHARDENED": "1"}, False),
    (["/v/bin/nbgrader", "generate_feedback"], {}, False),
    (["/v/bin/jupyter-server", "autograde"], {}, False),  # formgrader's button meets RefuseUnhardened instead
])
def test_only_the_autograde_command_is_refused_at_once(argv, environ, refused):
    from graders.classroom.nbgrader.nbguard import MESSAGE, refuse_command

    if refused:
        with pytest.raises(SystemExit, match="ATTN_UNHARDENED=1") as exc:
            refuse_command(argv, environ)
        assert str(exc.value) == f"nbgrader autograde: {MESSAGE}."
    else:
        refuse_command(argv, environ)


def test_export_gives_the_course_grade_as_nbgrader_export_does(graded, tmp_path, capsys):
    """Hand-marked points in and the late penalty off (an extension honoured), as in `nbgrader export`,
    cell for cell; a grade still waiting for a person's mark is refused, or left empty with --allow-ungraded."""
    import datetime

    from nbgrader.api import Gradebook

    from graders.cli import main

    course, _, _, env = graded
    course = Path(shutil.copytree(course, tmp_path / "course", symlinks=True))
    (course / "nbgrader_config_local.py").write_text('c = get_config()\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        hand = [g for e in registry.of_assignment(PART) for g in gb.find_submission_notebook(e.slug, PART, "ref").grades
                if g.needs_manual_grade]
        assert hand, "ref's written answers wait for a person"
        for g in hand:  # a person marks them, as formgrader does
            g.manual_score, g.needs_manual_grade = g.max_score / 2, False
        proof = hand[0]
        gb.update_or_create_assignment(PART, duedate="2029-12-31 12:00:00 UTC")
        for student in ("ref", "mutant"):  # both hand in a day late
            gb.find_submission(PART, student).timestamp = datetime.datetime(2030, 1, 1, 12)
        gb.grant_extension(PART, "ref", days=2)  # but ref has an extension
        waiting = [g for g in gb.find_submission_notebook(proof.notebook.name, PART, "stub").grades
                   if g.name == proof.name][0]
        waiting.needs_manual_grade = True  # stub's proof waits for a person
        gb.update_or_create_student("ref", first_name="Ada", last_name="Lovelace")  # the roster names ref
        gb.db.commit()
    _nbgrader(course, env, "export", f"--to={tmp_path / 'nbgrader.csv'}")
    with open(tmp_path / "nbgrader.csv", newline="", encoding="utf-8") as f:
        theirs = {r["student_id"]: (float(r["score"]), float(r["max_score"])) for r in csv.DictReader(f)
                  if r["assignment"] == PART}
    out = tmp_path / "out"
    assert main(["grade", str(course / "submitted"), "--out", str(out), "--assignment", PART, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["export", str(out), "--format", "csv", "--to", "-", "--nbgrader-course", str(course)]) == 2
    assert "1 grade(s) wait for a cell to be marked by hand in formgrader: stub (part1_scores)" in \
        capsys.readouterr().err
    assert main(["export", str(out), "--format", "csv", "--to", "-", "--nbgrader-course", str(course),
                 "--allow-ungraded"]) == 0
    ours = {r["student"]: (r["score"], float(r["max_score"]))
            for r in csv.DictReader(capsys.readouterr().out.splitlines())}
    assert ours["stub"] == ("", theirs["stub"][1])
    for student in ("ref", "mutant"):
        assert (float(ours[student][0]), ours[student][1]) == pytest.approx(theirs[student]), student
    assert theirs["mutant"][0] == 0 < float(_raw(course, "mutant")) and theirs["ref"][0] > sum(
        e.points for e in registry.of_assignment(PART))  # the penalty ('zero') and the hand mark are in
    assert main(["export", str(out), "--format", "canvas", "--to", "-", "--nbgrader-course", str(course),
                 "--allow-ungraded"]) == 0
    rows = {r[3]: r for r in csv.reader(capsys.readouterr().out.splitlines()[2:])}  # by SIS Login ID
    assert rows["ref"][0] == "Lovelace, Ada" and rows["mutant"][0] == "mutant"  # Canvas's Student: a name
    assert float(rows["ref"][5]) == pytest.approx(theirs["ref"][0]) and rows["stub"][5] == ""


def _raw(course: Path, student: str) -> float:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return gb.find_submission(PART, student).score


def test_a_proof_handed_in_again_reaches_formgrader_flagged_for_review(graded, tmp_path, capsys):
    """Only the proof changed: the digest sees it, autograded/ gets the new proof, the person's mark
    stays and the cell is flagged for review, as nbgrader's own autograde does (SaveAutoGrades)."""
    from nbgrader.api import Gradebook

    from graders.cli import main

    course, _, _, _ = graded
    course = Path(shutil.copytree(course, tmp_path / "course", symlinks=True))
    out, gid = tmp_path / "out", "variance_proof-proof"
    grade = ["grade", str(course / "submitted"), "--out", str(out), "--nbgrader-course", str(course),
             "--assignment", PART, "--no-progress"]
    assert main(grade) == 0

    def proof(student):
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
            g = gb.find_grade(gid, "variance_proof", PART, student)
            return g.manual_score, g.needs_manual_grade

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        g = gb.find_grade(gid, "variance_proof", PART, "ref")
        g.manual_score, g.needs_manual_grade = 3.0, False  # marked in formgrader
        gb.db.commit()
    assert main(grade) == 0 and proof("ref") == (3.0, False)  # nothing changed: the mark stands, unflagged
    handed_in = course / "submitted" / "ref" / PART / "variance_proof.ipynb"
    nb = json.loads(handed_in.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == gid)
    cell["source"] = "A second try at the proof: Var(q·k) = d_k because ..."
    handed_in.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    capsys.readouterr()
    assert main(grade) == 0
    said = capsys.readouterr().out
    assert "ref/part1_scores/variance_proof.ipynb: variance_proof-proof changed since it was marked" in said
    assert "3 student(s): 1 graded in this run, the others kept" in said
    marked = json.loads((course / "autograded" / "ref" / PART / "variance_proof.ipynb").read_text(encoding="utf-8"))
    assert any("A second try at the proof" in "".join(c["source"]) for c in marked["cells"])
    assert proof("ref") == (3.0, True)  # kept, and flagged for review
    assert proof("mutant")[1] is False  # the others as they were
