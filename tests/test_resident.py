"""The resident zygote (graders/sandbox/resident.py): the learner's commands share one that
outlives them; it grades as a zygote of their own does, ends each command's sandboxes with
it, ends when idle or told to, is rebuilt for other sandbox code, and nobody else (another
user, a student's code) reaches it."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cases import cases, view
from graders.cli.session import Session
from graders.cli.where import Target
from graders.grading.engine import ROOT, grade_file
from graders.grading.settings import Settings
from graders.sandbox import resident, zygote

CLI = [sys.executable, "-m", "graders.cli"]


@pytest.fixture
def runtime(monkeypatch):
    """A socket folder of this test's own (short: a socket's path has at most 107 bytes)."""
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="attn-rt-"))
    monkeypatch.setenv("ATTN_GRADE_RUNTIME", str(where))
    monkeypatch.delenv("ATTN_GRADE_RESIDENT", raising=False)
    yield where
    resident.stop(where)
    shutil.rmtree(where, ignore_errors=True)


def _learner():
    """The learner's zygote, as a command started now would choose it."""
    settings = Settings.from_environ()
    return resident.learner(settings.resident_runtime)


def serving(where: Path) -> list[int]:
    """The pids of the zygotes that answer in ``where``."""
    return [pid for path in sorted(where.glob("z-*.sock")) if (pid := resident.ask(path, "who"))]


def gone(path: str, seconds=8.0) -> bool:
    """Whether ``path`` (a /proc entry, a cgroup folder) disappears within ``seconds``."""
    deadline = time.monotonic() + seconds
    while os.path.exists(path):
        if time.monotonic() > deadline:
            return False
        if path.startswith("/proc/"):
            try:
                if Path(path, "stat").read_text().rpartition(")")[2].split()[0] == "Z":
                    return True  # ended; its parent reaps it
            except OSError:
                return True
        time.sleep(0.05)
    return True


def check(folder: Path, *words, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + ["check", *words, "--dir", str(folder), "--fresh"], cwd=ROOT,
                          capture_output=True, text=True, env=env or os.environ.copy(), timeout=120)


def test_the_learners_commands_use_it(runtime):
    assert isinstance(_learner(), resident.Resident)


SAMPLE = cases(mutants=2, alternatives=1)


@pytest.mark.parametrize("slug, path", SAMPLE, ids=[f"{s}/{p.stem}" for s, p in SAMPLE])
def test_it_grades_as_a_zygote_of_the_commands_own(slug, path, runtime):
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    try:
        shared = session.grade(Target(slug, path))
    finally:
        session.close()
    assert view(shared) == view(grade_file(slug, path, sandbox=None))


def test_a_second_command_finds_the_first_ones_zygote(runtime, tmp_path):
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    assert check(tmp_path, "softmax").returncode == 0
    first = serving(runtime)
    assert len(first) == 1, "the command that started it has ended: it should still serve"
    assert os.readlink(f"/proc/{first[0]}/cwd") == "/", "it holds none of the learner's folders"
    assert check(tmp_path, "softmax").returncode == 0
    assert serving(runtime) == first


def test_prepare_leaves_it_waiting_for_the_first_check(runtime, tmp_path):
    """``attn-grade prepare`` (what ``python3 tasks.py setup`` runs) starts it, so that a learner's
    first check forks from a zygote with NumPy and SymPy loaded, as every later one does."""
    env = {**os.environ, "ATTN_GRADE_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(CLI + ["prepare", "--quiet"], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    waiting = serving(runtime)
    assert len(waiting) == 1, "prepare left no zygote waiting"
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    assert check(tmp_path, "softmax", env=env).returncode == 0
    assert serving(runtime) == waiting


def test_it_holds_nothing_the_command_that_started_it_held_open(runtime):
    import select

    r, w = os.pipe()
    os.set_inheritable(w, True)  # as a watch's inotify descriptor, or a pipe of the shell's, can be
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    try:
        session.zygote.start()
        assert serving(runtime), "it answers once it has started"
        os.close(w)
        assert select.select([r], [], [], 10)[0] and os.read(r, 1) == b"", "the zygote holds the pipe open"
    finally:
        session.close()
        os.close(r)


def test_a_command_that_ends_takes_its_sandboxes_with_it(runtime):
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    session.grade(Target("softmax", ROOT / "solutions" / "softmax.py"))
    box = next(iter(session.folders.values())).sandbox.box
    pid, cgroup = box.pid, box.cgroup
    session.zygote.close()  # the command ends (without killing its sandbox itself)
    assert gone(f"/proc/{pid}")
    if cgroup:
        assert gone(cgroup)
    assert serving(runtime), "the zygote stays for the next command"


def test_a_zygote_that_was_killed_is_replaced(runtime, tmp_path):
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    assert check(tmp_path, "softmax").returncode == 0
    [pid] = serving(runtime)
    os.kill(pid, signal.SIGKILL)
    assert gone(f"/proc/{pid}")
    done = check(tmp_path, "softmax")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(serving(runtime)) == 1 and serving(runtime) != [pid]


def test_a_session_outlives_its_zygote(runtime):
    """watch keeps one session: a zygote stopped meanwhile (attn-grade stop elsewhere) is replaced."""
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    try:
        target = Target("softmax", ROOT / "solutions" / "softmax.py")
        assert session.grade(target).points == 10
        session.forget(target.path.parent)
        assert resident.stop(runtime) == 1
        assert session.grade(target).points == 10
    finally:
        session.close()


def test_an_idle_zygote_ends_and_removes_its_cgroups(runtime, monkeypatch):
    monkeypatch.setattr(resident, "IDLE", 1.0)  # part of the key: a zygote of its own
    idle_key = resident.key.__wrapped__()  # not key(): its once-per-process answer stays the usual one
    monkeypatch.setattr(resident, "key", lambda: idle_key)
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    session.grade(Target("softmax", ROOT / "solutions" / "softmax.py"))
    [pid] = serving(runtime)
    trees = [p for p in Path("/sys/fs/cgroup").glob(f"*/**/attn-grade-{pid}-*") if p.is_dir()]
    session.close()
    assert gone(f"/proc/{pid}", seconds=15.0)
    assert [t for t in trees if t.exists()] == []


def test_stop_ends_it(runtime, tmp_path):
    shutil.copy(ROOT / "solutions" / "softmax.py", tmp_path / "softmax.py")
    check(tmp_path, "softmax")
    [pid] = serving(runtime)
    done = subprocess.run(CLI + ["stop"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ended 1 background helper"
    assert gone(f"/proc/{pid}", seconds=1.0), "stop waits until it has ended"
    assert list(runtime.glob("z-*.sock")) == []
    again = subprocess.run(CLI + ["stop"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert again.stdout.strip() == "no background helper was running"


def test_it_can_be_turned_off(runtime, monkeypatch):
    monkeypatch.setenv("ATTN_GRADE_RESIDENT", "0")
    assert _learner() is zygote.shared()


@pytest.mark.parametrize("spoil", ["open to others", "a symlink", "not a folder"])
def test_a_folder_others_could_reach_is_not_used(spoil, tmp_path, monkeypatch):
    where = tmp_path / "run"
    if spoil == "open to others":
        where.mkdir(mode=0o700)
        where.chmod(0o755)
    elif spoil == "a symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        where.symlink_to(tmp_path / "elsewhere")
    else:
        where.write_text("")
    monkeypatch.setenv("ATTN_GRADE_RUNTIME", str(where))
    assert resident.folder(Settings.from_environ().runtime) is None
    assert _learner() is zygote.shared()


def test_the_key_follows_the_sandbox_code_and_settings(tmp_path, monkeypatch):
    fresh = resident.key.__wrapped__  # key() itself is worked out once per process
    copy = tmp_path / "sandbox"
    shutil.copytree(zygote.FACTORY.parent, copy)
    before = fresh()
    assert resident.key() == before
    monkeypatch.setattr(zygote, "FACTORY", copy / "factory.py")
    assert fresh() == before
    for name in resident.MADE_OF:
        text = (copy / f"{name}.py").read_text()
        (copy / f"{name}.py").write_text(text + "\n# changed\n")
        assert fresh() != before, f"{name}.py changed, and the key did not"
        (copy / f"{name}.py").write_text(text)
    monkeypatch.setattr(resident, "IDLE", resident.IDLE + 1)
    assert fresh() != before


def test_the_key_follows_the_installed_numpy_and_sympy(tmp_path, monkeypatch):
    fresh = resident.key.__wrapped__
    site = tmp_path / "site"
    for name in ("numpy-2.4.6.dist-info", "sympy-1.14.0.dist-info", "numpy", "sympy", "numpydoc-1.0.dist-info"):
        (site / name).mkdir(parents=True)
    monkeypatch.setattr(zygote, "SITE_DIRS", (str(site), str(tmp_path / "gone")))
    assert zygote.installed("numpy", zygote.SITE_DIRS) == "2.4.6" and zygote.installed("numpydoc", [site]) == "1.0"
    before = fresh()
    (site / "numpy-2.4.6.dist-info").rename(site / "numpy-2.5.0.dist-info")
    assert fresh() != before, "NumPy was upgraded, and the key did not change"
    (site / "numpy-2.5.0.dist-info").rename(site / "numpy-2.4.6.dist-info")
    assert fresh() == before
    (site / "sympy-1.14.0.dist-info").rename(site / "sympy-1.15.0.dist-info")
    assert fresh() != before, "SymPy was upgraded, and the key did not change"


@pytest.mark.parametrize("dist", ["numpy", "sympy", "hypothesis", "mpmath", "pytest", "attn-exercises", "no-such"])
def test_the_installed_versions_are_those_importlib_metadata_finds(dist):
    from importlib import metadata

    try:
        expected = metadata.version(dist)
    except metadata.PackageNotFoundError:
        expected = None
    assert zygote.installed(dist) == expected


@pytest.mark.skipif(os.getuid() != 0, reason="needs root, to become another user")
def test_another_user_cannot_connect(runtime, tmp_path):
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    session.zygote.start()
    [path] = runtime.glob("z-*.sock")
    pid = os.fork()
    if pid == 0:  # another user, trying the socket
        code = 3
        try:
            os.setgid(65534)
            os.setuid(65534)
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            conn.connect(str(path))
            code = 1
        except PermissionError:
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    session.close()
    assert os.waitstatus_to_exitcode(status) == 0, "another user connected to the zygote"


REACH = '''\
import os, socket

def softmax(z, axis=-1):
    tried = []
    for path in ["@@SOCK@@"] + [os.path.join("@@RUN@@", n) for n in ("", "x")]:
        try:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            conn.connect(path)
        except OSError as exc:
            tried.append(type(exc).__name__)
            continue
        conn.send(b'{"op": "stop"}')
        raise RuntimeError("reached the zygote at " + path)
    raise RuntimeError("unreachable: " + ", ".join(tried))
'''


def test_student_code_cannot_reach_it(runtime, tmp_path):
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    session.zygote.start()
    [path] = runtime.glob("z-*.sock")
    [pid] = serving(runtime)
    (tmp_path / "softmax.py").write_text(REACH.replace("@@SOCK@@", str(path)).replace("@@RUN@@", str(runtime)))
    try:
        result = session.grade(Target("softmax", tmp_path / "softmax.py"))
    finally:
        session.close()
    said = " ".join(c.message for c in result.checks)
    assert "unreachable" in said and "reached the zygote" not in said
    assert serving(runtime) == [pid]


def test_commands_starting_at_once_start_one_zygote(runtime):
    """The parent and its lane copy, or two terminals: connect-or-launch is done under a lock."""
    code = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
from graders.sandbox import resident
r = resident.Resident(Path({str(runtime)!r}))
r.start()
print("launched" if r.launched else "connected", flush=True)
sys.stdin.read()  # stay connected until told
"""
    procs = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True) for _ in range(4)]
    said = sorted(p.stdout.readline().strip() for p in procs)
    assert said == ["connected", "connected", "connected", "launched"]
    assert len(serving(runtime)) == 1
    for p in procs:
        p.communicate("")


def test_a_malformed_request_does_not_end_the_zygote(runtime):
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    try:
        session.zygote.start()
        [path] = runtime.glob("z-*.sock")
        [pid] = serving(runtime)
        for junk in (b"not json", b"[1, 2]", b'{"op": "spawn"}', b'{"op": "spawn", "sandbox": {}}', b'{"op": 7}'):
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            conn.connect(str(path))
            conn.send(junk)
            assert b"refused" in conn.recv(1 << 12), junk
            conn.close()
        assert serving(runtime) == [pid]
        assert session.grade(Target("softmax", ROOT / "solutions" / "softmax.py")).points == 10
    finally:
        session.close()


def test_a_zygote_without_namespaces_refuses_to_spawn():
    from graders.sandbox.inside import factory

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    spare, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    socket.send_fds(ours, [b'{"op": "spawn", "sandbox": {}}'], [spare.fileno()])
    assert factory._answer(theirs, None, None, (), confined=False) == "spawn"
    assert "no namespaces" in ours.recv(1 << 12).decode()
    ours.send(b'{"op": "who"}')
    factory._answer(theirs, None, None, (), confined=False)
    assert b'"confined": false' in ours.recv(1 << 12)


def test_where_it_refuses_a_command_uses_a_zygote_of_its_own(runtime):
    """A stand-in for a resident zygote on a system without namespaces: it refuses every spawn."""
    import threading

    path = runtime / f"z-{resident.key()}.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(str(path))
    listener.listen(8)

    def refuse():
        conn, _ = listener.accept()
        while True:
            msg, fds, _, _ = socket.recv_fds(conn, 1 << 16, 8)
            for fd in fds:
                os.close(fd)
            if not msg:
                return
            conn.send(b'{"refused": "no sandbox here: the system gives this zygote no namespaces"}')

    threading.Thread(target=refuse, daemon=True).start()
    session = Session(Settings.from_environ(), timeout=10.0, fresh=True)
    try:
        assert session.grade(Target("softmax", ROOT / "solutions" / "softmax.py")).points == 10
        assert session.zygote.own and session.zygote.proc is not None  # a zygote of its own did it
    finally:
        session.close()
        listener.close()


def test_a_folder_whose_sockets_would_not_fit_is_not_used(tmp_path, monkeypatch):
    deep = Path("/tmp") / ("d" * 90)
    try:
        monkeypatch.setenv("ATTN_GRADE_RUNTIME", str(deep))
        assert resident.folder(Settings.from_environ().runtime) is None and _learner() is zygote.shared()
    finally:
        shutil.rmtree(deep, ignore_errors=True)
