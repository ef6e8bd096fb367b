"""Run folders of zygotes killed outright (graders/sandbox/inside/flat.py, ``sweep``): the next
zygote of the same user removes them; a live zygote's folder, one being made, a link and another
user's folder stay."""

import fcntl
import os
import subprocess
import sys
import tempfile

import pytest

from graders.sandbox.inside import flat, scratch


def left_behind(tmp, name, *, lock=True, locked_by=None):
    """A run folder as a zygote leaves it: scratch folders below, a lock file (held by
    ``locked_by``, an open fd, or by nobody)."""
    path = os.path.join(tmp, flat.PREFIX + name)
    os.makedirs(os.path.join(path, "sandbox-1", "deep"))
    with open(os.path.join(path, "sandbox-1", "deep", "answer.py"), "w") as f:
        f.write("x = 1\n")
    os.chmod(os.path.join(path, "sandbox-1", "deep"), 0)  # closed by the student
    if lock:
        fd = os.open(os.path.join(path, flat.LOCK), os.O_RDWR | os.O_CREAT, 0o600)
        if locked_by == "us":
            fcntl.flock(fd, fcntl.LOCK_EX)
            return path, fd
        os.close(fd)
    return path, None


def test_a_dead_zygotes_folder_goes_and_the_others_stay(tmp_path):
    tmp = str(tmp_path)
    dead, _ = left_behind(tmp, "dead")
    making, _ = left_behind(tmp, "making", lock=False)
    # a live zygote: another process holds the lock
    alive, _ = left_behind(tmp, "alive")
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX); "
        "print('held', flush=True); time.sleep(60)"), os.path.join(alive, flat.LOCK)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        victim = tmp_path / "victim"
        victim.mkdir()
        (victim / "keep.txt").write_text("mine")
        os.symlink(victim, os.path.join(tmp, flat.PREFIX + "link"))
        gone = flat.sweep(scratch.remove, folder=tmp)
    finally:
        holder.kill()
        holder.wait()
    assert gone == [flat.PREFIX + "dead"]
    assert not os.path.lexists(dead)
    assert os.path.isdir(making) and os.path.isdir(alive)
    assert (victim / "keep.txt").read_text() == "mine"
    # once its zygote has ended, the live one's folder goes at the next sweep
    assert flat.sweep(scratch.remove, folder=tmp) == [flat.PREFIX + "alive"]


@pytest.mark.skipif(os.getuid() != 0, reason="needs a second user to own a folder")
def test_another_users_folder_stays(tmp_path):
    tmp = str(tmp_path)
    theirs, _ = left_behind(tmp, "theirs")
    for root, dirs, files in os.walk(theirs):
        os.chown(root, 65534, 65534)
    os.chown(theirs, 65534, 65534)
    assert flat.sweep(scratch.remove, folder=tmp) == []
    assert os.path.isdir(theirs)


def test_a_new_run_folder_sweeps_and_its_own_lock_keeps_it(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead, _ = left_behind(str(tmp_path), "dead")
    run = flat.RunFolder(scratch.remove)
    try:
        assert not os.path.lexists(dead)
        assert os.path.dirname(run.path) == str(tmp_path)
        # a second zygote's sweep leaves the first one's folder: its lock is held
        other = flat.RunFolder(scratch.remove)
        assert os.path.isdir(run.path)
        other.close()
        assert not os.path.lexists(other.path)
    finally:
        run.close()
    assert not os.path.lexists(run.path)
