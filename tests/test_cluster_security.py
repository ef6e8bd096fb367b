"""Who may connect to the Dask cluster that grades a class (issue 35, findings 1 and 2).

Another user of the machine finds the scheduler and the workers of a grading run in /proc/net/tcp.
Here that attacker (the user nobody, when the tests run as root; else this user without the
certificate) tries every port the run listens on, as a plain tcp:// client and as a tls:// client
with a certificate of its own, and asks the scheduler to run code. Each attempt must be refused,
and the class's grades must be the pool's, byte for byte. A plain tcp:// scheduler is refused unless
--insecure-cluster, and then every results.json and the summary say so.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from graders.batch.run import Options, run

from support.dask_cluster import cli, cluster_of, graded, needs_dask, stop, tls_options
from support.make_class import make_class

STUDENTS = 3
ATTACK = """
import json, os, sys, threading, time, urllib.request
from distributed import Client
from distributed.security import Security
said = []

def join(address, scheme, security):  # no key; or a key of its own
    try:
        with Client(f"{scheme}://{address}", timeout=3, security=security) as c:
            c.run_on_scheduler(lambda: 1)
        said.append([address, scheme, "JOINED"])
    except Exception as exc:
        said.append([address, scheme, type(exc).__name__])

def look(address):  # the status pages of Dask's HTTP server
    try:
        with urllib.request.urlopen(f"http://{address}/json/identity.json", timeout=3) as page:
            said.append([address, "http", f"READ {page.status}"])
    except Exception as exc:
        said.append([address, "http", type(exc).__name__])

threads = [threading.Thread(target=join, args=(address, scheme, security), daemon=True)
           for address in sys.argv[1:] for scheme, security in (("tcp", None), ("tls", Security.temporary()))]
threads += [threading.Thread(target=look, args=(address,), daemon=True) for address in sys.argv[1:]]
for t in threads:
    t.start()
deadline = time.monotonic() + 20
for t in threads:
    t.join(max(0.0, deadline - time.monotonic()))
print(json.dumps(sorted(said)), flush=True)
os._exit(0)  # an attempt still waiting (a port that never answers) has not joined
"""


TIMEOUT = "60"  # seconds a call may take: the slow student's call is still running while the attack goes on
SLOW = "import time\n\n\ndef softmax(z, axis=-1):\n    time.sleep(40)\n    raise NotImplementedError\n"


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """A small mixed class and the process pool's grades of it."""
    root = tmp_path_factory.mktemp("cluster_security")
    make_class(root / "class", STUDENTS, seed=11)
    run(Options(root / "class", root / "pool", jobs=2, timeout=float(TIMEOUT), progress=False), say=lambda *_: None)
    return root / "class", root / "pool"


def _grading(subs, out, address, *extra):
    return cli(subs, out, address, "--timeout", TIMEOUT, *extra)


def _attacker():
    """(argv prefix, environment) that run Python as another user where the tests may (root), else as this one."""
    home = tempfile.mkdtemp(prefix="attn-attacker-")
    os.chmod(home, 0o777)
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if os.getuid() == 0:
        nobody = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", pwd.getpwuid(65534).pw_name, "--"]
        if subprocess.run([*nobody, sys.executable, "-c", "import distributed"], env=env,
                          capture_output=True).returncode == 0:
            return nobody, env
    return [], env


def _listening(pid: int) -> list:
    """host:port of every TCP socket that process ``pid`` and its descendants listen on (what
    /proc/net/tcp shows any user, joined to the run's processes)."""
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                parts = line.split()
                if parts[3] == "0A":  # LISTEN
                    inodes[parts[9]] = int(parts[1].rsplit(":", 1)[1], 16)
    ports = set()
    for p in _descendants(pid):
        try:
            for fd in os.listdir(f"/proc/{p}/fd"):
                link = os.readlink(f"/proc/{p}/fd/{fd}")
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    ports.add(inodes[link[8:-1]])
        except OSError:
            continue
    return [f"127.0.0.1:{port}" for port in sorted(ports)]


def _descendants(pid: int) -> set:
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(stat[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        found.add(p)
        todo += children.get(p, [])
    return found


def _attack(addresses) -> list:
    prefix, env = _attacker()
    try:
        done = subprocess.run([*prefix, sys.executable, "-c", ATTACK, *addresses], env=env, capture_output=True,
                              text=True, timeout=300)
    finally:
        shutil.rmtree(env["HOME"], ignore_errors=True)  # its home: made 0777 for another user, gone after
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _refused(said) -> None:
    assert said, "the attacker found nothing to try"
    joined = [s for s in said if s[2] == "JOINED" or s[2].startswith("READ")]
    assert not joined, f"another user joined the cluster or read its pages: {joined}"


@needs_dask
def test_another_user_cannot_join_a_local_cluster_while_it_grades(klass, tmp_path):
    subs, pool = klass
    shutil.copytree(subs, tmp_path / "class")
    (tmp_path / "class" / "a_slow").mkdir()  # graded first, for 40 s: the cluster is there to attack
    (tmp_path / "class" / "a_slow" / "softmax.py").write_text(SLOW)
    proc = _grading(tmp_path / "class", tmp_path / "out", "local:2")
    said, deadline = [], time.monotonic() + 300
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            found = _listening(proc.pid)
            if len(found) >= 3:  # the scheduler, and each worker's own server
                said = _attack(found)
                assert proc.poll() is None, "the class was graded before the attack ended: it proves nothing; " \
                                            f"it said: {proc.stderr.read().decode(errors='replace')[-2000:]}"
                break
            time.sleep(0.2)
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    _refused(said)
    ours = {k: v for k, v in graded(tmp_path / "out").items() if "a_slow" not in k and k != "gradebook.csv"}
    assert ours == {k: v for k, v in graded(pool).items() if k != "gradebook.csv"}


@needs_dask
def test_another_user_cannot_join_a_tls_scheduler_and_the_grades_are_the_pools(klass, tmp_path):
    subs, pool = klass
    address, procs = cluster_of(tmp_path, 2)
    try:
        _refused(_attack([address.split("://", 1)[1]]))
        assert all(p.poll() is None for p in procs)  # the scheduler and its workers were there to refuse
        proc = _grading(subs, tmp_path / "out", address)
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        stop(procs)
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    assert graded(tmp_path / "out") == graded(pool)
    assert "INSECURE" not in stdout.decode()


@needs_dask
def test_plain_tcp_is_refused_unless_insecure_and_then_every_result_says_so(klass, tmp_path):
    subs, pool = klass
    address, procs = cluster_of(tmp_path, 1, secure=False)
    try:
        refused = _grading(subs, tmp_path / "out", address)
        _, stderr = refused.communicate(timeout=300)
        assert refused.returncode == 2
        said = stderr.decode()
        assert "neither encrypted nor authenticated" in said and "--insecure-cluster" in said
        assert "Traceback" not in said and not (tmp_path / "out").exists()
        proc = _grading(subs, tmp_path / "out", address, "--insecure-cluster")
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        stop(procs)
    assert proc.returncode == 0, stderr.decode(errors="replace")[-3000:]
    assert f"INSECURE: {STUDENTS} student(s) graded through a plain tcp:// Dask scheduler" in stdout.decode()
    for path in (tmp_path / "out").glob("students/*/results.json"):
        assert "--insecure-cluster" in json.loads(path.read_text())["extra_data"]["insecure_cluster"]
    # graded again when graded safely: the pool's files then
    run(Options(subs, tmp_path / "out", jobs=2, timeout=float(TIMEOUT), progress=False), say=lambda *_: None)
    assert graded(tmp_path / "out") == graded(pool)


@needs_dask
def test_a_key_other_users_may_read_or_a_missing_certificate_is_refused_by_name(klass, tmp_path):
    subs, _ = klass
    options = tls_options(tmp_path)
    os.chmod(tmp_path / "cluster.key", 0o644)
    proc = cli(subs, tmp_path / "out", "tls://127.0.0.1:9", *options)
    _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 2
    assert f"chmod 600 {tmp_path / 'cluster.key'}" in stderr.decode()
    proc = subprocess.run([sys.executable, "-m", "graders.cli", "grade", str(subs), "--out", str(tmp_path / "o"),
                           "--cluster", "tls://127.0.0.1:9"], capture_output=True, text=True,
                          env={**os.environ, "DASK_CONFIG": str(tmp_path / "none")}, timeout=300)
    assert proc.returncode == 2 and "needs its certificate" in proc.stderr and "Traceback" not in proc.stderr
