"""Where users live: the same grades and the same safety in every setting the sandbox meets.

.ci/run runs this file, with the sandbox, hostile, batch and learner tests, as
root (namespaces), as an ordinary user (a user namespace), as an ordinary user
whose user namespaces are refused (Landlock), and as root without
CAP_SYS_ADMIN (a user of its own per sandbox, Landlock), naming the setting it
expects in ATTN_EXPECT_SETTING; here, every test checks the setting it finds.
In each: the reference solutions get full marks and the stubs zero, through
``check`` and ``grade``; a student who hunts for the solutions and the hidden
checks gets nothing from them; a classmate can neither change another's files
nor end another's processes; and the run says which protections held.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders import registry
from graders.sandbox.sandbox import isolated, probe

ROOT = Path(__file__).resolve().parent.parent
TOTAL = sum(e.points for e in registry.EXERCISES)
SECRET_WORDS = ("Reference solution for", "Hidden checks for")  # the first words of those files

THIEF = '''
import glob, os
import numpy as np

REPO = "@@REPO@@"
FOUND = []


def _take(path):
    try:
        with open(path) as f:
            FOUND.append(f.read(4000))
    except OSError:
        pass


def softmax(z, axis=-1):
    for rel in ("solutions/softmax.py", "graders/hidden/softmax.py", "graders/softmax.py"):
        _take(os.path.join(REPO, rel))
    for path in glob.glob("/tmp/attn-grade-run-*/sandbox-*/*/softmax.py") + glob.glob("/proc/*/cwd/*/softmax.py"):
        _take(path)
    for text in FOUND:
        if "def softmax" in text and "NotImplementedError" not in text:
            space = {}
            exec(text, space)  # a stolen reference: full marks, if the sandbox let it be read
            if "softmax" in space:
                return space["softmax"](z, axis)
    if FOUND:
        raise ValueError("".join(FOUND))  # hidden text into the visible feedback, if any was read
    raise NotImplementedError("nothing to steal")
'''

VANDAL = '''
import glob, os, signal, time

TARGETS = "@@SUBMISSIONS@@"


def softmax(z, axis=-1):
    end = time.monotonic() + 3
    while time.monotonic() < end:  # a classmate's files, as handed in and as copied for grading
        for path in glob.glob(TARGETS + "/*/softmax.py") + glob.glob("/tmp/attn-grade-run-*/sandbox-*/*/*.py"):
            try:
                with open(path, "w") as f:
                    f.write("def softmax(z, axis=-1):\\n    return z * 0\\n")
            except OSError:
                pass
        for pid in [-1] + [int(p) for p in os.listdir("/proc") if p.isdigit()] if os.path.isdir("/proc") else [-1]:
            if pid != os.getpid():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(0.05)
    raise NotImplementedError("vandalised")
'''


@pytest.fixture(scope="module")
def setting():
    return probe()


def _cli(*args, cwd=None):
    env = dict(os.environ, ATTN_GRADE_RESIDENT="0", COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "graders.cli", *map(str, args)], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=900)


def test_the_sandbox_here_isolates_and_is_the_setting_expected(setting):
    flags = setting.protections
    assert setting.isolated and isolated(flags), setting.missing
    expected = os.environ.get("ATTN_EXPECT_SETTING")
    if expected:
        assert flags["setting"] == expected, (flags, setting.missing)
    assert flags["seccomp"] and flags["own_user"] == (flags["setting"] != "landlock")


def test_check_gives_the_solutions_full_marks_and_the_stubs_zero_and_names_the_sandbox(tmp_path, setting):
    right = _cli("check", "--dir", ROOT / "solutions", "--fresh")
    assert right.returncode == 0, right.stdout + right.stderr
    assert f"Total: {TOTAL}/{TOTAL}" in right.stdout
    assert f"sandbox: {setting.protections['setting']}" in right.stdout
    shutil.copytree(ROOT / "exercises", tmp_path / "exercises")
    stubs = _cli("check", "--dir", tmp_path / "exercises")
    assert stubs.returncode == 1 and f"Total: 0/{TOTAL}" in stubs.stdout, stubs.stdout + stubs.stderr


def _digests(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_grade_isolates_a_thief_and_a_vandal_from_their_classmates(tmp_path, setting):
    subs = tmp_path / "submissions"
    for name in ("alice", "carol"):
        shutil.copytree(ROOT / "solutions", subs / name)
    shutil.copytree(ROOT / "exercises", subs / "bob")
    for name, text in (("thief", THIEF), ("vandal", VANDAL)):
        (subs / name).mkdir()
        (subs / name / "softmax.py").write_text(text.replace("@@REPO@@", str(ROOT))
                                                .replace("@@SUBMISSIONS@@", str(subs)))
    before = _digests(subs)
    out = tmp_path / "graded"
    done = _cli("grade", subs, "--out", out, "--jobs", "2", "--no-progress", "--assignment", "part3_attention")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _digests(subs) == before  # nobody's files changed
    scores = {p.parent.name: json.loads(p.read_text()) for p in (out / "students").glob("*/results.json")}
    top = sum(e.points for e in registry.of_assignment("part3_attention"))
    assert scores["alice"]["score"] == scores["carol"]["score"] == top
    assert scores["bob"]["score"] == 0
    assert scores["thief"]["score"] == 0 and scores["vandal"]["score"] == 0  # as the stub, their honest twin
    for data in scores.values():
        text = json.dumps(data)
        assert not any(word in text for word in SECRET_WORDS)
        assert data["extra_data"]["isolation"]["protections"]["setting"] == setting.protections["setting"]
    assert "Isolation: " in done.stdout and "NOT isolated" not in done.stdout


def test_a_class_is_not_graded_unisolated_unless_the_instructor_says_so(tmp_path, monkeypatch):
    """Where neither namespaces nor Landlock exist (an old kernel), grade refuses, naming why;
    with --allow-unisolated it grades, and results.json and the summary say so."""
    from graders.batch import run as batch
    from graders.sandbox import sandbox as handle

    real = handle.probe

    def old_kernel(limits=None):
        report = real(limits)
        return dataclasses.replace(report, protections=dict(report.protections, files=False, setting="limits only"),
                                   missing=(*report.missing, "no Landlock (this kernel has none)"))

    monkeypatch.setattr(handle, "probe", old_kernel)
    shutil.copytree(ROOT / "solutions", tmp_path / "subs" / "alice")
    opts = batch.Options(tmp_path / "subs", tmp_path / "out", jobs=1, progress=False,
                         assignments=("part1_scores",))
    with pytest.raises(batch.NoSandbox, match="cannot isolate students here: .*no Landlock.*--allow-unisolated"):
        batch.run(opts, say=lambda *_: None)
    assert not (tmp_path / "out" / "students").exists()  # nothing written
    said = []
    batch.run(batch.Options(**{**opts.__dict__, "allow_unisolated": True}), say=said.append)
    data = json.loads((tmp_path / "out" / "students" / "alice" / "results.json").read_text())
    assert data["extra_data"]["isolation"]["allowed_unisolated"] is True
    assert any(line.startswith("WARNING: grading without isolation") for line in said)
