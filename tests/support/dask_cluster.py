"""A real Dask scheduler and workers, each a process of its own as on other machines, for the tests
of ``attn-grade grade --cluster`` (tests/test_cluster.py, tests/test_cluster_more.py); and what of
a graded OUT must equal the pool's. Tests only: the ``scheduler`` fixture is imported by name."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="Dask distributed is not installed (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
       # as docs/instructors/cluster.md asks of a scheduler: a student whose grading kills 2 workers
       # gets "grading crashed"
       "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1",
       # as docs/instructors/cluster.md's cluster has it: no status pages
       "DASK_DISTRIBUTED__SCHEDULER__HTTP__ROUTES": "[]", "DASK_DISTRIBUTED__WORKER__HTTP__ROUTES": "[]"}


def graded(out: Path) -> dict:
    """gradebook.csv and every results.json: what must equal the pool's."""
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.glob("students/*/results.json"))}
    return {**files, "gradebook.csv": (out / "gradebook.csv").read_bytes()}


def start(args, log: Path, env=ENV):
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                            env=env, cwd=log.parent, start_new_session=True)


def stop(procs):
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def certificate(where: Path) -> tuple:
    """The cluster's certificate made in ``where`` by docs/instructors/cluster.md's own commands (its
    block that runs ``openssl req``): (ca file, certificate, key), as --tls-ca-file, --tls-cert and
    --tls-key take them."""
    text = (ROOT / "docs" / "instructors" / "cluster.md").read_text(encoding="utf-8")
    blocks = [b.split("\n", 1)[1] for b in text.split("```")[1::2] if "openssl req" in b]
    assert len(blocks) == 1, "docs/instructors/cluster.md has one block that makes the cluster's certificate"
    subprocess.run(["bash", "-euc", blocks[0]], cwd=where, check=True, capture_output=True)
    return str(where / "cluster.pem"), str(where / "cluster.pem"), str(where / "cluster.key")


def tls_options(where: Path) -> list:
    """The --tls-* options of ``dask scheduler``, ``dask worker`` and ``attn-grade grade`` for ``where``'s certificate."""
    ca, cert, key = certificate(where) if not (where / "cluster.key").exists() else \
        (str(where / "cluster.pem"), str(where / "cluster.pem"), str(where / "cluster.key"))
    return ["--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key]


def start_scheduler(where: Path, secure: bool = True):
    """A scheduler started as a separate process: (its process, its address), tls:// with the documented
    certificate unless not ``secure`` (then plain tcp://, as --insecure-cluster allows)."""
    file = where / "scheduler.json"
    tls = ["--protocol", "tls", *tls_options(where)] if secure else []
    proc = start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                  "--scheduler-file", str(file), *tls], where / "scheduler.log")
    deadline = time.monotonic() + 60
    while not file.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    assert file.exists(), (where / "scheduler.log").read_text()[-2000:]
    time.sleep(0.2)  # written whole
    address = json.loads(file.read_text())["address"]
    if secure:
        _certificates[address] = (str(where / "cluster.pem"), str(where / "cluster.pem"), str(where / "cluster.key"))
    return proc, address


def start_worker(where: Path, name: str, *extra):
    """A nanny and its single-threaded worker process, joining the scheduler started in ``where``."""
    tls = tls_options(where) if (where / "cluster.key").exists() else []
    return start(["distributed.cli.dask_worker", "--scheduler-file", str(where / "scheduler.json"), "--nthreads",
                  "1", "--no-dashboard", "--name", name, *tls, *extra], where / f"{name}.log")


def client_security(address: str):
    """What a client of the scheduler at ``address`` needs: the certificate of its folder for tls://."""
    if not address.startswith("tls://"):
        return None
    from distributed.security import Security

    ca, cert, key = _certificates[address]
    return Security(require_encryption=True, tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key)


_certificates = {}  # a tls:// scheduler's address -> its (ca, cert, key), for the tests' own clients


def wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout=30, security=client_security(address)) as client:
        client.wait_for_workers(n, timeout=120)


def cluster_of(where: Path, workers: int = 2, *extra, secure: bool = True):
    """A scheduler and ``workers`` workers (each started with ``extra``): (address, their processes);
    over tls:// with the documented certificate unless not ``secure``."""
    proc, address = start_scheduler(where, secure)
    procs = [start_worker(where, f"w{i}", *extra) for i in range(workers)]
    try:
        wait_for_workers(address, workers)
    except BaseException:
        stop([*procs, proc])
        raise
    return address, [*procs, proc]


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A scheduler's address and two workers, for a module's tests."""
    if not HAVE_DASK:
        pytest.skip("Dask distributed is not installed (pip install -e '.[test]')")
    address, procs = cluster_of(tmp_path_factory.mktemp("dask"))
    try:
        yield address
    finally:
        stop(procs)


def cli(subs: Path, out: Path, address: str, *extra):
    """``attn-grade grade SUBS --out OUT --cluster ADDRESS`` started: its process (stdout, stderr piped)."""
    if address.startswith("tls://") and "--tls-ca-file" not in extra:
        ca, cert, key = _certificates[address]
        extra = ("--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key, *extra)
    return subprocess.Popen([sys.executable, "-m", "graders.cli", "grade", str(subs), "--out", str(out),
                             "--cluster", address, "--no-progress", *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV, start_new_session=True)
