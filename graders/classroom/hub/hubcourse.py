"""The hub's course (hub.py): the grader account's copy of this project, its course built, the roster in.

    make_course              the copy, the course built (attn-grade course build), the hub's students on
                             its roster, its exchange and a "zero" late policy in nbgrader_config_local.py
"""

from __future__ import annotations

import shutil

from .hubenvs import grader_environment
from .hubsetup import ROOT, HubLayout, as_user, run, say


def _project_files() -> list[str]:
    """The project's files as they are now, but those git ignores (venvs, grades, students' work)."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = run(["git", "-c", f"safe.directory={ROOT}", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                   "--exclude-standard"], "listing the project's files (git ls-files)")
        return [p for p in out.split("\0") if p and (ROOT / p).is_file()]
    skip = {".git", ".venv", "graded", "demo-out", "__pycache__", ".pytest_cache"}
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def make_course(layout: HubLayout) -> str:
    """The grader's copy of this project with its course built, the students on the roster and the hub's
    exchange and a "zero" late policy in nbgrader_config_local.py; the grader environment's bin folder."""
    say(f"copying the project to {layout.project}, the grader account's course")
    shutil.rmtree(layout.project, ignore_errors=True)
    for rel in _project_files():
        (layout.project / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, layout.project / rel)
    run(["chown", "-R", f"{layout.grader}:", str(layout.project)], f"giving {layout.project} to {layout.grader}")
    bin_ = grader_environment(layout)
    say("building the course (attn-grade course build) and importing the roster")
    as_user(layout.grader, "attn-grade course build", bin_, layout.project)
    roster = "id,first_name,last_name,email\n" + "".join(
        f"{s},Student,{i},{s}@example.org\n" for i, s in enumerate(layout.students, 1))
    (layout.course / "students.csv").write_text(roster, encoding="utf-8")
    with (layout.course / "nbgrader_config_local.py").open("a", encoding="utf-8") as f:
        f.write(f'\n# set by the hub (graders/classroom/hub/hubsetup.py)\nc.Exchange.root = "{layout.exchange}"\n'
                f'c.LateSubmissionPlugin.penalty_method = "zero"\n')
    run(["chown", f"{layout.grader}:", str(layout.course / "students.csv")], "giving the roster to the grader")
    as_user(layout.grader, "nbgrader db student import students.csv", bin_, layout.course)
    return bin_
