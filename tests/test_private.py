"""What attn-grade writes is its user's alone (issue 35, finding 6): OUT (the gradebook, every
student's feedback, the hidden checks' names, copying.json), the plan cache and a learner's
progress; or, with ``attn-grade grade --group NAME``, OUT is readable by that group of graders."""

import grp
import json
import os
import pwd
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from graders.outfolder import outfiles
from graders.classroom.gradescope import owner_only
from graders.cli import main
from graders.cli.state import State
from graders.grading.plancache import PlanStore, VerdictStore

ROOT = Path(__file__).resolve().parent.parent
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="another user's view needs root to become that user")


def _class(root: Path) -> Path:
    """One student, ann, with the reference softmax (graded with --assignment part3_attention: quick)."""
    subs = root / "class"
    (subs / "ann").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "softmax.py", subs / "ann" / "softmax.py")
    return subs


def _loose_out(out: Path) -> None:
    """OUT as an earlier version left it: folders 0755, files 0644 (a gradebook, a student, .sources)."""
    for folder in (out, out / "students" / "old", out / ".sources" / "old"):
        folder.mkdir(parents=True, exist_ok=True)
    for path in (out / "gradebook.csv", out / "report.html", out / ".sources" / "old" / "softmax.py"):
        path.write_text("from an earlier run\n")
    for path in [out, *out.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def _grade(subs: Path, out: Path, *more) -> int:
    return main(["grade", str(subs), "--out", str(out), "--no-progress", "--jobs", "1",
                 "--assignment", "part3_attention", *more])


def _modes(out: Path) -> dict:
    """Every path under OUT (OUT itself as "."): (its mode bits with setgid, its group id)."""
    found = {}
    for path in [out, *out.rglob("*")]:
        st = os.lstat(path)
        found[path.relative_to(out).as_posix()] = (stat.S_IMODE(st.st_mode), st.st_gid, stat.S_ISDIR(st.st_mode))
    return found


def _wrong(out: Path, folder_mode: int, file_mode: int, gid=None) -> dict:
    return {rel: f"{mode:o} group {g}" for rel, (mode, g, is_dir) in _modes(out).items()
            if mode != (folder_mode if is_dir else file_mode) or (gid is not None and g != gid)}


def test_everything_grade_writes_is_the_owners_alone(tmp_path, capsys):
    subs, out = _class(tmp_path), tmp_path / "graded"
    _loose_out(out)
    assert _grade(subs, out) == 0
    assert (out / "students" / "ann" / "results.json").is_file() and (out / "copying.json").is_file()
    assert _wrong(out, 0o700, 0o600) == {}, "OUT is readable by others"
    assert main(["export", str(out), "--format", "csv"]) == 0  # another command writing into OUT
    assert stat.S_IMODE((out / "grades-by-assignment.csv").stat().st_mode) == 0o600


def test_the_answers_taken_from_notebooks_are_the_owners_alone_and_still_graded(tmp_path):
    """nbgrader's layout: the answer cells go to OUT/.sources/<student>/, which the sandbox reads
    (as the grader, before it is confined) through folders 0700."""
    nb = {"cells": [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "softmax-answer"}},
                     "source": (ROOT / "solutions" / "softmax.py").read_text(), "outputs": [],
                     "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    subs, out = tmp_path / "submitted", tmp_path / "graded"
    (subs / "ann" / "part3_attention").mkdir(parents=True)
    (subs / "ann" / "part3_attention" / "softmax.ipynb").write_text(json.dumps(nb))
    assert _grade(subs, out) == 0
    assert (out / ".sources" / "ann" / "softmax.py").is_file()
    assert _wrong(out, 0o700, 0o600) == {}
    per = [t for t in json.loads((out / "students" / "ann" / "results.json").read_text())["tests"]
           if t["exercise"] == "softmax"]
    assert per and all(t["score"] == t["max_score"] for t in per), "the sandbox could not read the answer"


def _as(user: str, *command, group: str | None = None):
    """``command`` run as ``user`` (with ``group`` as its only group, else the user's own)."""
    who = pwd.getpwnam(user)
    gid = grp.getgrnam(group).gr_gid if group else who.pw_gid
    return subprocess.run(list(command), user=who.pw_uid, group=gid, extra_groups=[], capture_output=True,
                          text=True, timeout=30, cwd="/")


@ROOT_ONLY
def test_another_user_cannot_read_the_gradebook_or_list_the_students(open_folder, capsys):
    subs, out = _class(open_folder), open_folder / "graded"
    _loose_out(out)
    assert _as("nobody", "cat", str(out / "gradebook.csv")).returncode == 0  # as it was: anybody's to read
    assert _grade(subs, out) == 0
    assert _as("nobody", "ls", str(open_folder)).returncode == 0  # the place is open; OUT is not
    for command in (["cat", str(out / "gradebook.csv")], ["ls", str(out / "students")],
                    ["cat", str(out / "students" / "ann" / "results.json")]):
        seen = _as("nobody", *command)
        assert seen.returncode != 0 and "Permission denied" in seen.stderr, (command, seen.stdout)


def _other_group() -> str | None:
    """A group that is not root's primary one, to see files take the folder's group, not the writer's."""
    for name in ("nogroup", "users", "staff", "adm"):
        try:
            if grp.getgrnam(name).gr_gid != os.getgid():
                return name
        except KeyError:
            continue
    return None


@pytest.mark.parametrize("which", ["primary", "other"])
def test_a_group_of_graders_may_read_out_and_later_writers_keep_it(tmp_path, capsys, which):
    if which == "primary":
        name = grp.getgrgid(os.getgid()).gr_name
    elif os.geteuid() != 0 or _other_group() is None:
        pytest.skip("giving OUT to a group other than one's own primary group is tried as root, with one")
    else:
        name = _other_group()
    gid = grp.getgrnam(name).gr_gid
    subs, out = _class(tmp_path), tmp_path / "graded"
    _loose_out(out)
    assert _grade(subs, out, "--group", name) == 0
    assert _wrong(out, 0o2750, 0o640, gid) == {}, f"OUT is not shared with {name} to read"
    assert main(["export", str(out), "--format", "csv"]) == 0  # a later writer follows the folder
    st = (out / "grades-by-assignment.csv").stat()
    assert (stat.S_IMODE(st.st_mode), st.st_gid) == (0o640, gid)
    assert _grade(subs, out) == 0  # graded again without --group: OUT is closed again
    assert _wrong(out, 0o700, 0o600) == {}


@ROOT_ONLY
def test_a_member_of_the_group_reads_out_and_nobody_else_does(open_folder, capsys):
    name = _other_group()
    if name is None:
        pytest.skip("no group here but root's own")
    subs, out = _class(open_folder), open_folder / "graded"
    assert _grade(subs, out, "--group", name) == 0
    member, stranger = (_as("nobody", "cat", str(out / "students" / "ann" / "results.json"), group=g)
                        for g in (name, grp.getgrgid(os.getgid()).gr_name))
    assert member.returncode == 0 and '"tests"' in member.stdout
    assert stranger.returncode != 0 and "Permission denied" in stranger.stderr


def test_an_unknown_group_is_refused_naming_it(tmp_path, capsys):
    subs = _class(tmp_path)
    with pytest.raises(SystemExit) as info:
        _grade(subs, tmp_path / "graded", "--group", "no-such-graders")
    assert info.value.code == 2
    assert "--group no-such-graders: there is no group called 'no-such-graders'" in capsys.readouterr().err
    assert not (tmp_path / "graded").exists()


def test_a_group_the_user_is_not_in_is_refused(monkeypatch):
    someone_elses = grp.getgrgid(0).gr_name
    monkeypatch.setattr(os, "geteuid", lambda: 4242)
    monkeypatch.setattr(os, "getegid", lambda: 4242)
    monkeypatch.setattr(os, "getgroups", lambda: [4242])
    assert f"you are not in the group {someone_elses!r}" in owner_only.group_refusal(someone_elses)
    monkeypatch.setattr(os, "getgroups", lambda: [4242, 0])
    assert owner_only.group_refusal(someone_elses) is None


def test_settle_names_what_it_could_not_close(tmp_path, monkeypatch):
    (tmp_path / "out").mkdir()

    def refuse(path, mode, **_):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chmod", refuse)
    with pytest.raises(owner_only.Unsettled, match=r"could not make .*out owner-only \(mode 700\): Operation not"):
        owner_only.settle(tmp_path / "out")


def test_a_file_rewritten_in_out_is_the_owners_alone_whatever_the_umask(tmp_path):
    path = tmp_path / "out" / "students" / "ann" / "results.json"
    old = os.umask(0)
    try:
        outfiles.write_atomic(path, "{}\n")
        path.chmod(0o666)
        outfiles.write_atomic(path, "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [stat.S_IMODE(f.stat().st_mode) for f in (path.parent, path.parent.parent)] == [0o700, 0o700]


def test_the_plan_cache_and_learner_progress_are_the_users_alone(tmp_path):
    cache = tmp_path / "cache"
    for folder in ("progress", "plans"):  # as an earlier version made them
        (cache / folder).mkdir(parents=True)
        (cache / folder).chmod(0o755)
    folder = tmp_path / "work"
    folder.mkdir()
    State(folder, cache).save()
    assert PlanStore(cache / "plans", shipped=None).save("k" * 64, None)
    assert VerdictStore(cache / "verdicts").put("abc", "{}")
    fresh = tmp_path / "new-cache"
    State(folder, fresh).save()  # a cache made now: its folder too
    for top in (cache, fresh):
        files = [p for p in top.rglob("*") if p.is_file()]
        assert files and {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
        assert {stat.S_IMODE(p.stat().st_mode) for p in top.rglob("*") if p.is_dir()} == {0o700}
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
