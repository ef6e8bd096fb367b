"""What a sandbox may write to its scratch folder (issue 35): 64 MB and 2000 files and folders,
in every setting (graders/sandbox/inside/scratch.py). With namespaces the folder is a tmpfs of that
size; without, it is a folder on the host's disk, which the sandbox's init measures while a call
runs and after each answer. A call past a bound earns nothing and says so; the sandbox ends and
its folder goes; the grader and the next call are fine. tests/test_hostile.py grades such
students in a class (scratch_flood, scratch_crowd) beside honest ones.
"""

import os
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from graders.sandbox.errors import Crashed
from graders.sandbox.inside import scratch
from graders.sandbox.submission import Submission
from graders.sandbox.zygote import Limits
from test_resident import check, runtime  # noqa: F401 - runtime: a fixture

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
BOUNDS = {"scratch_mb": Limits().scratch_mb, "scratch_entries": Limits().scratch_entries, "file_mb": Limits().file_mb}
SIZE = f"limit of {BOUNDS['scratch_mb']} MB on what your code writes"
ENTRIES = f"limit of {BOUNDS['scratch_entries']} files and folders"
WHERE = "import os\n\n\ndef where():\n    return os.getcwd()\n"

# Each writes past a bound in its own way, then answers: (source of a function ``f``, words).
WAYS = {
    "big_files": ("""
        def f():
            for i in range(300):
                try:
                    with open(f"big-{i}", "wb") as out:
                        out.write(b"x" * (15 << 20))
                except OSError:
                    pass
            return 1.0
        """, SIZE),
    "empty_files": ("""
        def f():
            for i in range(100_000):
                try:
                    open(f"e{i}", "w").close()
                except OSError:
                    pass
            return 1.0
        """, ENTRIES),
    "a_closed_folder": ("""
        import os
        def f():
            os.mkdir("hidden")
            for i in range(5):
                try:
                    with open(f"hidden/big-{i}", "wb") as out:
                        out.write(b"x" * (15 << 20))
                except OSError:
                    pass
            os.chmod("hidden", 0)
            return 1.0
        """, SIZE),
    "deleted_files_held_open": ("""
        import os
        held = []
        def f():
            for i in range(8):
                try:
                    fd = os.open(f"gone-{i}", os.O_CREAT | os.O_RDWR, 0o600)
                    os.unlink(f"gone-{i}")
                    held.append(fd)
                    os.write(fd, b"x" * (15 << 20))
                except OSError:
                    pass
            return 1.0
        """, SIZE),
    "deleted_files_still_mapped": ("""
        import mmap, os
        held = []
        def f():
            for i in range(8):
                try:
                    with open(f"mapped-{i}", "wb+") as out:
                        out.write(b"x" * (15 << 20))
                        out.flush()
                        held.append(mmap.mmap(out.fileno(), 4096))
                    os.unlink(f"mapped-{i}")
                except OSError:
                    pass
            return 1.0
        """, SIZE),
}


def student(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "softmax.py"
    path.write_text(WHERE + textwrap.dedent(body))
    return path


def ended(path: str, seconds=5.0) -> bool:
    """Whether ``path`` (a scratch folder on the host, a /proc entry) goes within ``seconds``; a
    namespace's /scratch is no host path: it went with its namespace."""
    deadline = time.monotonic() + seconds
    while os.path.lexists(path) and not _zombie(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _zombie(path):
    """Whether ``path`` is the /proc entry of a process that has ended (its parent reaps it)."""
    try:
        return path.startswith("/proc/") and Path(path, "stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_call_past_a_bound_of_its_folder_earns_nothing_and_its_sandbox_ends(tmp_path, way):
    body, words = WAYS[way]
    with Submission(student(tmp_path / "s", body), call_timeout=20.0) as sub:
        assert sub.start().ready
        expected = os.environ.get("ATTN_EXPECT_SETTING")  # .ci/settings names the setting it runs in
        assert not expected or sub.sandbox.report.protections["setting"] == expected
        folder = sub.call("where")
        box = sub.sandbox.box.pid
        start = time.monotonic()
        with pytest.raises(Crashed) as info:
            sub.call("f")
        assert words in str(info.value), str(info.value)
        assert time.monotonic() - start < 10, "stopped long after the bound"
        assert sub.sandbox.box is None, "the sandbox should have ended"
        assert ended(folder), f"{folder} is still there"
        assert ended(f"/proc/{box}"), "its outer process is still running"
        assert sub.call("where")  # the grader is fine: a fresh sandbox serves the next call


def test_a_process_left_writing_after_its_call_is_stopped_too(tmp_path):
    path = student(tmp_path / "s", """
        import os, time
        def f():
            if os.fork() == 0:  # writes after the call has answered, while the sandbox waits
                time.sleep(0.3)
                for i in range(300):
                    try:
                        with open(f"late-{i}", "wb") as out:
                            out.write(b"x" * (15 << 20))
                    except OSError:
                        pass
                time.sleep(60)
                os._exit(0)
            return 1.0
        """)
    with Submission(path, call_timeout=20.0) as sub:
        assert sub.start().ready
        assert sub.call("f") == 1.0
        time.sleep(2.0)
        with pytest.raises(Crashed) as info:
            sub.call("where")
        assert SIZE in str(info.value), str(info.value)


def test_what_an_honest_call_writes_is_its_own_business(tmp_path):
    path = student(tmp_path / "s", """
        import os
        import numpy as np
        def f(x):
            os.makedirs("a/b/c", exist_ok=True)
            for i in range(200):
                with open(f"a/b/c/{i}.txt", "w") as out:
                    out.write("0.5\\n" * 100)
            np.save("a/x.npy", np.zeros((1000, 1000)))  # 8 MB
            with open("big", "wb") as out:
                out.write(b"x" * (15 << 20))
            return x * 2
        """)
    with Submission(path) as sub:
        assert sub.start().ready
        for _ in range(3):
            np.testing.assert_array_equal(sub.call("f", np.ones(3)), np.full(3, 2.0))


def test_the_flat_measure_counts_what_is_there_once_and_follows_no_link(tmp_path):
    cfg = BOUNDS
    box = {"namespaced": False, "scratch": str(tmp_path / "box")}
    outside = tmp_path / "outside"
    outside.mkdir()
    for i in range(6):
        (outside / f"{i}").write_bytes(b"x" * (15 << 20))
    (tmp_path / "box").mkdir()
    (tmp_path / "box" / "elsewhere").symlink_to(outside)  # 90 MB behind a link: not the sandbox's
    (tmp_path / "box" / "one").write_bytes(b"x" * (15 << 20))
    for i in range(10):  # 10 names of one 15 MB file: counted once
        os.link(tmp_path / "box" / "one", tmp_path / "box" / f"link-{i}")
    assert scratch.reached(box, cfg) is None
    for i in range(4):
        (tmp_path / "box" / f"more-{i}").write_bytes(b"x" * (15 << 20))
    assert scratch.reached(box, cfg) == "size"
    crowd = tmp_path / "crowd"
    crowd.mkdir()
    for i in range(cfg["scratch_entries"] - 1):
        (crowd / str(i)).touch()
    assert scratch.reached({"namespaced": False, "scratch": str(crowd)}, cfg) is None
    (crowd / "one more").touch()
    assert scratch.reached({"namespaced": False, "scratch": str(crowd)}, cfg) == "entries"


def test_a_folder_nested_deep_and_closed_is_measured_then_removed(tmp_path):
    cfg = BOUNDS
    top = tmp_path / "box"
    here = top
    for i in range(scratch.DEPTH - 1):
        here = here / "d"
    here.mkdir(parents=True)
    assert scratch.reached({"namespaced": False, "scratch": str(top)}, cfg) is None
    (here / "d").mkdir()
    assert scratch.reached({"namespaced": False, "scratch": str(top)}, cfg) == "depth"
    deep = os.open(str(top), os.O_RDONLY)  # far deeper than a path may be long, each folder closed
    try:
        for i in range(3000):
            os.mkdir("x" * 200, 0o700, dir_fd=deep)
            below = os.open("x" * 200, os.O_RDONLY, dir_fd=deep)
            os.close(deep)
            deep = below
        os.close(os.open("file", os.O_CREAT | os.O_WRONLY, dir_fd=deep))
    finally:
        os.close(deep)
    os.chmod(top / "d", 0)
    assert scratch.remove(str(top))
    assert not top.exists()


def test_the_learners_check_keeps_the_same_bound(runtime, tmp_path):  # noqa: F811 - the fixture
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "softmax.py").write_bytes((HOSTILE / "scratch_flood" / "softmax.py").read_bytes())
    done = check(folder, "softmax")
    assert SIZE in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
    (folder / "softmax.py").write_bytes((ROOT / "solutions" / "softmax.py").read_bytes())
    assert check(folder, "softmax").returncode == 0  # the learner's zygote serves on
