"""The sandbox as a whole: a cgroup bounds its memory and processes, a seccomp filter refuses
namespaces and mounts, no host path shows inside, and a crowded folder cannot crowd out the
exercise files. Each property is checked only where the sandbox says it is in force."""

import ctypes
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from graders.sandbox.inside import cgroups
from graders.sandbox.errors import Crashed
from graders.sandbox.sandbox import Sandbox
from graders.sandbox.submission import Submission
from graders.sandbox.zygote import Jail, Limits, SandboxFailed, Zygote

ROOT = Path(__file__).resolve().parent.parent


def student(folder, source, name="softmax.py"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


def needs(outcome, words):
    if not any(words in m for m in outcome.measures):
        pytest.skip(f"not in force here: {words} ({'; '.join(outcome.missing)})")


def test_namespaces_mounts_memfd_and_keyrings_are_refused_and_ordinary_work_is_not(tmp_path):
    path = student(tmp_path / "s", """
        import ctypes, errno, os, subprocess, threading
        libc = ctypes.CDLL(None, use_errno=True)

        def refused(result):
            return result == -1 and ctypes.get_errno() == errno.EPERM

        def probe():
            out = {hex(f): refused(libc.unshare(f)) for f in (0x10000000, 0x20000000, 0x40000000, 0x00020000,
                                                              0x04000000, 0x08000000, 0x10020000)}
            out["mount"] = refused(libc.mount(b"none", b"/scratch", b"tmpfs", 0, None))
            try:
                os.memfd_create("x")
                out["memfd"] = False
            except OSError as exc:
                out["memfd"] = exc.errno == errno.EPERM
            out["keyctl"] = refused(libc.syscall(250, 0, 0, 0, 0, 0))  # keyctl on x86_64
            # System V IPC outlives the sandbox: a 256 MB segment, a semaphore set, a message queue
            out["shmget"] = refused(libc.shmget(0, ctypes.c_size_t(256 << 20), 0o1600))
            out["semget"] = refused(libc.semget(0, 1, 0o1600))
            out["msgget"] = refused(libc.msgget(0, 0o1600))
            out["shmat"] = refused(libc.shmat(0, None, 0))
            t = threading.Thread(target=lambda: None)
            t.start()
            t.join()
            out["work"] = subprocess.run(["true"]).returncode == 0 and os.waitpid(_fork(), 0)[1] == 0
            return sorted(out.items())

        def _fork():
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            return pid
    """)
    with Submission(path) as sub:
        needs(sub.start(), "seccomp")
        out = sub.call("probe")
    assert all(ok for _, ok in out), out


def _system_v_objects():
    """The machine's System V IPC objects (what ``ipcs`` lists), as (kind, key, id) triples."""
    found = set()
    for kind in ("shm", "sem", "msg"):
        with open(f"/proc/sysvipc/{kind}") as f:
            found |= {(kind, *line.split()[:2]) for line in f.readlines()[1:]}
    return found


def test_no_system_v_ipc_outlives_a_sandbox(tmp_path):
    """Issue 35: 8 x 256 MB of shared memory stayed on the machine after grading without namespaces."""
    path = student(tmp_path / "s", """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)

        def leave():
            made = 0
            for _ in range(8):
                shm = libc.shmget(0, ctypes.c_size_t(256 << 20), 0o1666)  # IPC_PRIVATE, IPC_CREAT
                made += shm >= 0
                if shm >= 0:
                    libc.shmat(shm, None, 0)
            made += libc.semget(0, 4, 0o1666) >= 0
            made += libc.msgget(0, 0o1666) >= 0
            return made
    """)
    before = _system_v_objects()
    with Submission(path) as sub:
        needs(sub.start(), "seccomp")
        made = sub.call("leave")
    assert made == 0
    assert _system_v_objects() <= before


def test_the_whole_sandbox_is_held_to_its_memory_limit(tmp_path):
    """Two children and the worker each within the address-space limit, more than it together."""
    path = student(tmp_path / "s", """
        import os, time
        import numpy as np

        def hold(mb):
            a = np.ones(mb << 17)  # float64: every page touched
            return a

        def fill():
            for _ in range(2):
                if os.fork() == 0:
                    kept = hold(100)
                    time.sleep(60)
                    os._exit(0)
            time.sleep(0.5)
            return float(hold(200).sum())
    """)
    jail = Jail.for_folder(tmp_path, limits=Limits(memory_mb=400))
    with Submission(path, jail=jail, call_timeout=20) as sub:
        needs(sub.start(), "cgroup")
        folder = sub.sandbox.box.cgroup
        with pytest.raises(Crashed, match="killed by the sandbox's memory limit of 400 MB"):
            sub.call("fill")
        assert cgroups.oom_kills([folder]) >= 1
        peak = _peak(folder)
        assert peak is None or peak <= 400 << 20


def _peak(folder):
    for name in ("memory.max_usage_in_bytes", "memory.peak"):
        try:
            return int(Path(folder, name).read_text())
        except (OSError, ValueError):
            continue
    return None


def test_a_sandbox_starts_no_more_than_its_processes(tmp_path):
    path = student(tmp_path / "s", """
        import os, time

        def flood():
            started = 0
            for _ in range(100):
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    time.sleep(30)
                    os._exit(0)
                started += 1
            return started
    """)
    with Submission(path) as sub:
        needs(sub.start(), "cgroup")
        started = sub.call("flood")
    assert started < Limits().processes


def test_no_host_path_shows_inside_the_sandbox(tmp_path):
    path = student(tmp_path / "s", """
        import os, sys

        def _read(path):  # without namespaces, Landlock lets a process read only its own /proc/PID
            try:
                return open(path, "rb").read().decode()
            except OSError:
                return ""

        def seen():
            texts = [_read(f"/proc/{p}/cmdline") for p in ("1", "self")]
            texts += [*os.environ.values(), *sys.argv, sys.executable, sys.prefix, os.getcwd()]
            frame = sys._getframe()
            while frame:
                texts += [frame.f_code.co_filename, *(repr(v) for v in frame.f_locals.values())]
                frame = frame.f_back
            texts += [m.__file__ for n, m in sys.modules.items() if n.startswith("_attn_")]
            libraries = [p for p in sys.path if "-packages" in p]
            texts += [_read(os.path.join(p, n)) for p in libraries for n in os.listdir(p)
                      if n.startswith("__editable__") or n.endswith(".pth")]
            for p in libraries:  # mounted where NumPy was imported from: they keep their paths
                texts = [t.replace(p, "<library>") for t in texts]
            return texts  # a list: one string of an answer may hold at most 20,000 characters
    """)
    with Submission(path) as sub:
        outcome = sub.start()
        needs(outcome, "namespaces")
        seen = "\n".join(sub.call("seen"))
    assert str(ROOT) not in seen and str(tmp_path) not in seen
    assert "attn-grade-sandbox" in seen and "/attn-grade/worker.py" in seen  # what shows instead


def test_the_hosts_sockets_are_not_listed_inside_the_sandbox(tmp_path):
    """Issue 35, finding 8: without a network namespace, /proc/net/tcp named every port on the machine
    and its owner (a grading run's Dask scheduler, say). Landlock now leaves /proc/PID/net out."""
    import socket

    path = student(tmp_path / "s", """
        def _read(path):
            try:
                return open(path).read()
            except OSError as exc:
                return type(exc).__name__

        def tables():
            return [_read(p) for p in ("/proc/net/tcp", "/proc/self/net/tcp", "/proc/net/tcp6", "/proc/net/unix",
                                       "/proc/thread-self/net/tcp")]

        def own():
            return _read("/proc/self/status")[:5], _read("/proc/self/maps")[:1] != "P"
    """)
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    port = f"{listening.getsockname()[1]:04X}"
    try:
        with Submission(path) as sub:
            sub.start()
            tables, own = sub.call("tables"), sub.call("own")
    finally:
        listening.close()
    assert not any(f":{port} " in t for t in tables), tables  # a namespace's own table, or none
    assert own == ("Name:", True)  # what the process may read of itself


def test_the_exercise_files_are_taken_first_from_a_crowded_folder(tmp_path):
    folder = tmp_path / "crowded"
    for i in range(80):
        student(folder, "def f():\n    return %d\n" % i, f"00_helper_{i:02d}.py")
    for i in range(10_050):
        (folder / f"000_data_{i:05d}.csv").write_text("0\n")
    good = student(folder, "f = __import__('00_helper_03').f\n", "softmax.py")
    bad = student(folder, "f = __import__('00_helper_79').f\n", "attention.py")
    with Sandbox(folder, jail=Jail.for_folder(tmp_path)) as sandbox:
        with Submission(good, sandbox=sandbox) as sub:
            assert sub.start().ready and sub.call("f") == 3
        with Submission(bad, sandbox=sandbox) as sub:  # the sandbox is made again, taking it first
            outcome = sub.start()
        assert not outcome.ready and "ModuleNotFoundError" in outcome.message
        assert "only 64 .py files are copied into the sandbox (the exercise files first)" in outcome.message
        assert "more than 10000 entries" in outcome.message


def test_a_file_too_large_for_the_sandbox_is_named(tmp_path):
    path = student(tmp_path / "s", "x = 1\n" + "#" * (2 << 20) + "\n")
    with Submission(path) as sub:
        outcome = sub.start()
    assert not outcome.ready and "softmax.py is larger than 1 MB, so it was not copied" in outcome.message


def test_a_zygote_removes_its_cgroups_and_the_empty_ones_of_zygotes_that_died(tmp_path):
    mounts, own = cgroups._mounts(), cgroups._own_paths()
    if "memory" not in mounts or "memory" not in own:
        pytest.skip("no cgroup v1 memory hierarchy here")
    parent = Path(mounts["memory"], own["memory"].lstrip("/"))
    stale = parent / f"{cgroups.PREFIX}999999999-1"
    try:
        stale.mkdir()
        (stale / "sandbox-1").mkdir()
    except OSError as exc:
        pytest.skip(f"cgroups cannot be made here: {exc}")
    zygote = Zygote()
    path = student(tmp_path / "s", "def f():\n    return 1\n")
    with Submission(path, zygote=zygote) as sub:
        needs(sub.start(), "cgroup")
        assert sub.call("f") == 1
        pid = zygote.proc.pid
    assert not stale.exists()  # swept when the zygote started
    assert [p.name for p in parent.glob(f"{cgroups.PREFIX}{pid}-*")]  # its own tree, while it runs
    zygote.close()
    assert not list(parent.glob(f"{cgroups.PREFIX}{pid}-*")) and not os.path.exists(f"/proc/{pid}")


TREE_HOLDER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from graders.sandbox.inside import cgroups
tree, why = cgroups.Tree.open()
print(json.dumps(tree and tree.sandbox(1, 64, 4) or why), flush=True)
sys.stdin.readline()
tree.close()
"""


def test_a_zygote_that_starts_leaves_the_tree_of_a_live_one_alone():
    """Two graders at once (a class's batch beside a student's check): the second's sweep for
    dead zygotes' trees must not take the first one's sandbox cgroup, made but not joined yet."""
    holders = []
    try:
        for _ in range(2):
            holders.append(subprocess.Popen([sys.executable, "-c", TREE_HOLDER, str(ROOT)], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True))
            made = json.loads(holders[-1].stdout.readline())
            if isinstance(made, str):
                pytest.skip(f"no cgroup here: {made}")
            if len(holders) == 1:
                first = made
        assert [d for d in first if not os.path.isdir(d)] == []
    finally:
        for holder in holders:
            holder.communicate("\n", timeout=30)
    made = first + made  # the sandboxes' cgroups, then the trees that held them
    assert [d for d in made + [os.path.dirname(d) for d in made] if os.path.exists(d)] == []


STRAY_CHILD = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from graders.sandbox.inside import cgroups
tree, why = cgroups.Tree.open()
if tree is None:
    print(json.dumps(why)); sys.exit()
child = os.fork()
if child == 0:  # a sandbox killed before it joined its cgroup: still in the keeper
    time.sleep(60); os._exit(0)
tree.close(reap=lambda: os.waitpid(-1, os.WNOHANG))
print(json.dumps(tree.bases))
"""


def test_a_child_left_in_the_keeper_does_not_keep_the_tree():
    """CI once found a zygote's tree left behind, its keeper holding a child that never reached
    its sandbox's cgroup: the zygote removes the keeper too, killing what is left in it."""
    proc = subprocess.run([sys.executable, "-c", STRAY_CHILD, str(ROOT)], capture_output=True, text=True,
                          timeout=60)
    bases = json.loads(proc.stdout)
    if isinstance(bases, str):
        pytest.skip(f"no cgroup here: {bases}")
    assert [b for b in bases if os.path.exists(b)] == []


def test_a_zygote_told_to_end_again_while_it_cleans_up_still_removes_its_cgroups(tmp_path):
    """The grading process hangs up, then its death signal (SIGTERM) comes while the zygote is
    removing its sandboxes' cgroups: the clean-up must finish all the same."""
    mounts, own = cgroups._mounts(), cgroups._own_paths()
    if "memory" not in mounts or "memory" not in own:
        pytest.skip("no cgroup v1 memory hierarchy here")
    parent = Path(mounts["memory"], own["memory"].lstrip("/"))
    zygote = Zygote()
    subs = [Submission(student(tmp_path / f"s{i}", "def f():\n    return 1\n"), zygote=zygote) for i in range(4)]
    for sub in subs:
        needs(sub.start(), "cgroup")
        assert sub.call("f") == 1
    proc = zygote.proc
    assert list(parent.glob(f"{cgroups.PREFIX}{proc.pid}-*/sandbox-*"))
    zygote.sock.close()  # hang up: the zygote starts its clean-up ...
    for _ in range(200):  # ... and is told to end, again and again, while it runs
        try:
            os.kill(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            break
        time.sleep(0.0005)
    proc.wait(timeout=10)
    for sub in subs:
        sub.kill()
    assert not list(parent.glob(f"{cgroups.PREFIX}{proc.pid}-*"))


def test_a_sandbox_cgroup_gets_its_limits_under_either_version(tmp_path):
    """The files written, on plain folders standing in for the two hierarchies (v1) or one (v2)."""
    v1 = cgroups.Tree(1, [str(tmp_path / "memory"), str(tmp_path / "pids")])
    for base in v1.bases:
        os.makedirs(base)
    mem, pids = v1.sandbox(3, 256, 16)
    assert Path(mem, "memory.limit_in_bytes").read_text() == str(256 << 20)
    assert Path(pids, "pids.max").read_text() == "16" and mem.endswith("memory/sandbox-3")
    v2 = cgroups.Tree(2, [str(tmp_path / "unified")])
    os.makedirs(v2.bases[0])
    (one,) = v2.sandbox(4, 256, 16)
    assert Path(one, "memory.max").read_text() == str(256 << 20) and Path(one, "pids.max").read_text() == "16"
    assert "v2" in v2.describe(256, 16) and "256 MB" in v2.describe(256, 16)


def test_without_controllers_to_hand_down_the_sandbox_says_why(tmp_path, monkeypatch):
    (tmp_path / "grader").mkdir()
    (tmp_path / "grader" / "cgroup.controllers").write_text("cpu io\n")
    (tmp_path / "grader" / "cgroup.subtree_control").write_text("\n")
    monkeypatch.setattr(cgroups, "_mounts", lambda: {"cgroup2": str(tmp_path)})
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": "/grader"})
    tree, why = cgroups.Tree.open()
    assert tree is None and "memory and pids controllers are not available" in why
    monkeypatch.setattr(cgroups, "_mounts", lambda: {})
    assert cgroups.Tree.open() == (None, "the system has no memory and pids cgroup controllers")


def test_install_hooks_are_hidden_even_in_a_library_folder_below_the_new_root(tmp_path):
    # A clone in /tmp has its virtualenv below the tmpfs the sandbox's root is built on: the hooks
    # must be listed before that tmpfs covers them (a fresh clone's CI run once showed the finder).
    from graders.sandbox.inside import jail

    lib = tmp_path / "site-packages"  # below /tmp, as /tmp/x/.venv/lib/python3.11/site-packages is
    lib.mkdir()
    (lib / "__editable__.project.pth").write_text(f"import finder; finder.install({str(tmp_path)!r})")
    (lib / "ordinary.py").write_text("x = 1\n")
    assert str(lib).startswith("/tmp/")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child of our own, in a private mount namespace, builds the root and reports
        try:
            os.close(r)
            if jail._libc.unshare(ctypes.c_int(jail.CLONE_NEWNS)) != 0:
                os.write(w, b"skip")
            else:
                jail.build_root([str(lib)], {}, "size=1m")
                os.write(w, repr([(lib / n).read_text() for n in ("__editable__.project.pth", "ordinary.py")]).encode())
        except BaseException as exc:  # noqa: BLE001 - reported to the test, which fails with it
            os.write(w, f"error: {exc!r}".encode())
        finally:
            os._exit(0)
    os.close(w)
    seen = os.read(r, 1 << 16).decode()
    os.waitpid(pid, 0)
    if seen == "skip":
        pytest.skip("no private mount namespace here")
    assert seen == repr(["", "x = 1\n"])


def test_a_sandbox_holds_nothing_of_the_students_graded_before_it(tmp_path):
    """The zygote never hears whose folder a sandbox is for (finding 10: earlier classmates'
    folder names were found in a later sandbox's memory, 2 runs in 3)."""
    zygote = Zygote()
    names = [f"classmate-{i}-{os.urandom(4 + 4 * i).hex()}" for i in range(9)]  # sizes vary, as paths do
    for name in names[:-1]:
        with Submission(student(tmp_path / name, "def f():\n    return 1\n"), zygote=zygote) as sub:
            assert sub.start().ready and sub.call("f") == 1
    path = student(tmp_path / names[-1], """
        import ctypes

        def found(backwards):  # written backwards: the arguments must not hold what is looked for
            with open("/proc/self/maps") as f:
                regions = [line.split() for line in f]
            parts = []
            for fields in regions:  # the heap, the stack and anonymous memory: no file, no [vvar]
                name = fields[5] if len(fields) > 5 else ""
                if fields[1][0] != "r" or name.startswith("[v") or (name and not name.startswith("[")):
                    continue
                start, end = (int(x, 16) for x in fields[0].split("-"))
                parts.append(ctypes.string_at(start, end - start))
            memory = b"|".join(parts)  # taken before the words exist in this process
            return [i for i, word in enumerate(backwards) if word[::-1].encode() in memory]
    """)
    try:
        with Submission(path, zygote=zygote) as sub:
            outcome = sub.start()
            if not outcome.protections.get("private_root"):
                pytest.skip("no /proc in a sandbox without namespaces (Landlock keeps it out)")
            seen = sub.call("found", [n.rpartition("-")[2][::-1] for n in names[:-1]])
    finally:
        zygote.close()
    assert seen == []  # no piece of the folders graded before


def test_the_cgroup_sweep_never_touches_a_tree_that_holds_a_process(tmp_path):
    """Another zygote, alive in another PID namespace, shares this cgroup tree: its sandbox
    lives on when this zygote starts (finding 9); an empty leftover tree is removed."""
    mounts, own = cgroups._mounts(), cgroups._own_paths()
    if "memory" not in mounts or "memory" not in own:
        pytest.skip("no cgroup v1 memory hierarchy here")
    parent = Path(mounts["memory"], own["memory"].lstrip("/"))
    theirs, empty = parent / f"{cgroups.PREFIX}1-1", parent / f"{cgroups.PREFIX}999999999-1"
    other = subprocess.Popen(["sleep", "60"])
    try:
        try:
            for tree in (theirs, empty):
                (tree / "sandbox-1").mkdir(parents=True)
            (theirs / "sandbox-1" / "cgroup.procs").write_text(str(other.pid))
        except OSError as exc:
            pytest.skip(f"cgroups cannot be made here: {exc}")
        zygote = Zygote()
        with Submission(student(tmp_path / "s", "def f():\n    return 1\n"), zygote=zygote) as sub:
            needs(sub.start(), "cgroup")
            assert sub.call("f") == 1
        zygote.close()
        assert other.poll() is None and (theirs / "sandbox-1").is_dir()
        assert not empty.exists()
    finally:
        other.kill()
        other.wait()
        for tree in (theirs, empty):
            for d in (tree / "sandbox-1", tree):
                try:
                    d.rmdir()
                except OSError:
                    pass


def test_a_sandbox_that_cannot_start_is_the_graders_failure_not_the_students(tmp_path):
    """A sandbox whose building fails (here: a scratch root that is no path) says why before it
    ends; grading raises SandboxFailed, naming the cause, and gives nobody a zero (finding 1:
    the reference scored 0/10, "did your code call sys.exit or os._exit?")."""
    from graders.grading.engine import grade_file

    path = student(tmp_path / "s", "def f():\n    return 1\n")
    with Submission(path, jail=Jail(scratch=5)) as sub:
        with pytest.raises(SandboxFailed, match="the sandbox could not start: TypeError"):
            sub.start()
    sandbox = Sandbox(path.parent, jail=Jail(scratch=5))
    with pytest.raises(SandboxFailed, match="the sandbox could not start"):
        grade_file("softmax", ROOT / "solutions" / "softmax.py", sandbox=sandbox)
    sandbox.kill()


def test_a_zygote_started_under_a_strict_umask_builds_a_root_its_sandbox_can_walk(tmp_path):
    """run_autograder sets umask 077; a zygote started under it made the folders of the private
    root (/root/.pyenv/..., /tmp/x/.venv/...) 0700, and the user nobody could then import no
    module that was not loaded already (the fresh clone's CI: No module named 'numpy.ma')."""
    path = student(tmp_path / "s", "def f():\n    import colorsys, numpy.ma\n    return 1\n")
    old = os.umask(0o077)
    zygote = Zygote()
    try:
        zygote.start()
    finally:
        os.umask(old)
    try:
        with Submission(path, zygote=zygote) as sub:
            assert sub.start().ready
            assert sub.call("f") == 1
    finally:
        zygote.close()


def test_a_zygote_killed_outright_leaves_no_cgroup(tmp_path):
    """CI once found a tree (its keeper and nothing else) left after a hostile batch: a zygote
    killed before its clean-up could remove it. The grading process that started it removes
    it once it has reaped the zygote, killing what is left in it."""
    mounts, own = cgroups._mounts(), cgroups._own_paths()
    if "memory" not in mounts or "memory" not in own:
        pytest.skip("no cgroup v1 memory hierarchy here")
    parent = Path(mounts["memory"], own["memory"].lstrip("/"))
    zygote = Zygote()
    with Submission(student(tmp_path / "s", "def f():\n    return 1\n"), zygote=zygote) as sub:
        needs(sub.start(), "cgroup")
        assert sub.call("f") == 1
        pid = zygote.proc.pid
        assert list(parent.glob(f"{cgroups.PREFIX}{pid}-*/sandbox-*"))
        os.kill(pid, signal.SIGKILL)
        zygote.proc.wait(timeout=10)
        zygote.close()
    assert not list(parent.glob(f"{cgroups.PREFIX}{pid}-*"))


def test_a_tree_swept_while_it_is_made_is_made_again(tmp_path, monkeypatch):
    """Another zygote starting at the same moment may sweep the tree between its folders being made
    and this zygote moving in; cgroup v1 then answers ENODEV (a folder made in a dying cgroup). That is
    tried again, as a tree already gone is, not taken for a machine without cgroups."""
    import errno

    for hierarchy in ("memory", "pids"):
        (tmp_path / hierarchy / "grader").mkdir(parents=True)
    monkeypatch.setattr(cgroups, "_mounts", lambda: {"memory": str(tmp_path / "memory"),
                                                     "pids": str(tmp_path / "pids")})
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"memory": "/grader", "pids": "/grader"})
    real, tries = cgroups.Tree._move_in.__func__, []

    def swept_once(cls, *args):
        tries.append(True)
        if len(tries) == 1:
            raise OSError(errno.ENODEV, "No such device")
        return real(cls, *args)

    monkeypatch.setattr(cgroups.Tree, "_move_in", classmethod(swept_once))
    tree, why = cgroups.Tree.open()
    assert why == "" and tree is not None and len(tries) == 2
    assert Path(tree.bases[0], cgroups.KEEPER, "cgroup.procs").read_text() == str(os.getpid())
