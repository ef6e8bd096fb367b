"""The grader reads a student's folder only as far as the sandbox takes it (issue 20, finding 5).

A 2 GB sparse ``notes.py`` (nothing on disk) beside the answers: the sandbox
takes at most 1 MB a file (graders/sandbox/inside/files.py), so the grading process,
which reads the folder for its digests (batch/digest.py, cli/fullmarks.py), must
not read more either. Each command runs in a process of its own, which reports
its peak resident memory: far below the file's 2 GB whatever the machine's speed.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from graders.sandbox.inside.files import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solutions" / "softmax.py"
PEAK_MB = 512  # the commands below need under 100 MB (about 30 to 50 here); reading the file, 2048 MB more

# Runs one attn-grade command in this process, then prints its exit status and its peak memory.
MEASURED = """
import json, resource, sys
from graders.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def sparse(path: Path, size: int = 2 << 30) -> None:
    """A file of ``size`` bytes that takes no room on disk."""
    with open(path, "wb") as f:
        f.truncate(size)


def measured(*argv) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", MEASURED, *map(str, argv)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    *said, last = done.stdout.strip().splitlines()
    return json.loads(last), "\n".join(said)


def test_the_batch_never_reads_a_2gb_file_in_a_students_folder(tmp_path):
    subs = tmp_path / "class"
    for who in ("ann", "bob"):
        (subs / who).mkdir(parents=True)
        shutil.copy(SOLUTION, subs / who / "softmax.py")
    sparse(subs / "ann" / "notes.py")
    argv = ["grade", subs, "--out", tmp_path / "graded", "--no-progress", "--jobs", "1",
            "--assignment", "part3_attention"]
    run, said = measured(*argv)
    assert run["code"] == 0 and run["peak_mb"] < PEAK_MB, (run, said)
    for who in ("ann", "bob"):
        data = json.loads((tmp_path / "graded" / "students" / who / "results.json").read_text())
        assert sum(t["score"] for t in data["tests"] if t["exercise"] == "softmax") == 10
    again, said = measured(*argv)  # the digest of ann's folder is the same: nobody is graded again
    assert again["code"] == 0 and again["peak_mb"] < PEAK_MB
    assert "2 student(s) already graded" in said


def test_check_never_reads_a_2gb_file_in_the_learners_folder(tmp_path):
    work = tmp_path / "exercises"
    work.mkdir()
    shutil.copy(SOLUTION, work / "softmax.py")
    sparse(work / "notes.py")
    first, _ = measured("check", "--dir", work, "softmax")
    assert first["code"] == 0 and first["peak_mb"] < PEAK_MB, first
    again, said = measured("check", "--dir", work, "softmax")  # taken as the sandbox takes it: kept
    assert again["code"] == 0 and again["peak_mb"] < PEAK_MB, again
    assert "1 unchanged file was not run again" in said


def test_a_file_over_the_limit_counts_by_the_note_that_names_it(tmp_path):
    from graders.grading.sources import folder_digest

    (tmp_path / "softmax.py").write_text("x = 1\n")
    before = folder_digest(tmp_path, ["softmax.py"])
    sparse(tmp_path / "notes.py", MAX_FILE_BYTES + 1)
    large = folder_digest(tmp_path, ["softmax.py"])
    assert large != before  # named: the sandbox says it left notes.py out
    with open(tmp_path / "notes.py", "r+b") as f:
        f.write(b"# what it holds past the limit is never read")
    assert folder_digest(tmp_path, ["softmax.py"]) == large
    os.truncate(tmp_path / "notes.py", MAX_FILE_BYTES)  # within the limit: taken, so read
    assert folder_digest(tmp_path, ["softmax.py"]) not in (before, large)
