"""python3 tasks.py hub: the course on a JupyterHub of this machine, for an instructor to try.

    running(layout, port, release)   a context manager: the accounts (hubusers.py), folders (hubsetup.py),
                                     environments (hubenvs.py), course (hubcourse.py) and hub, started;
                                     yields a Running; on leaving (an error or Ctrl-C too) the hub is
                                     stopped and its accounts, their homes and processes and /srv/NAME
                                     are removed
    main(argv)                       the command: starts it, prints the address and the logins, waits
                                     for Ctrl-C

It needs root: the hub starts each user's server as their own Unix user, and the accounts are made
for the run. Nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ...terminal.help import HelpFormatter
from .hubcourse import make_course
from .hubenvs import proxy, users_environment
from .hubsetup import COURSE_ID, HUB_FILES, HubError, HubLayout, as_user, make_folders, say
from .hubusers import make_users, remove_users

NOT_ROOT = ("the hub needs root: it makes a Unix account for the instructor, each student and the grader, "
            "and starts each one's Jupyter server as that account (JupyterHub's LocalProcessSpawner). "
            "Run it as root on a machine or container you may add users to (sudo python3 tasks.py hub); "
            "without root, the README's plain Jupyter term shows the same course.")


@dataclass
class Running:
    layout: HubLayout
    url: str  # ends with /
    passwords: dict[str, str]
    users_bin: str
    grader_bin: str
    log: Path
    process: subprocess.Popen

    @property
    def formgrader(self) -> str:
        return f"{self.url}services/{COURSE_ID}/formgrader"

    def grader(self, command: str) -> str:
        """``command`` in the course folder as the grader account (what the formgrader's terminal runs)."""
        return as_user(self.layout.grader, command, self.grader_bin, self.layout.course)

    def user(self, user: str, command: str, input: str | None = None) -> str:
        """``command`` in ``user``'s home as ``user``, with the users' environment (``input`` on its stdin)."""
        return as_user(user, command, self.users_bin, input=input)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(port: int, path: str) -> int:
    """The HTTP status 127.0.0.1:``port`` answers for ``path`` (redirects not followed); 0 if none."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return 0
    finally:
        conn.close()


def _wait(process: subprocess.Popen, log: Path, port: int, path: str, what: str, seconds: int = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if status(port, path) in (200, 302):
            return
        if process.poll() is not None:
            raise HubError(f"the hub stopped (exit {process.returncode}) before {what}; its log, {log}, ends:\n"
                           + "\n".join(log.read_text(errors="replace").splitlines()[-25:]))
        time.sleep(0.5)
    raise HubError(f"{what} did not happen within {seconds} s; the hub's log is {log}")


def _start(layout: HubLayout, port: int, users_bin: str, grader_bin: str, chp: str) -> tuple[subprocess.Popen, Path]:
    settings = {"state": str(layout.state), "port": port, "hub_port": free_port(), "proxy_api_port": free_port(),
                "proxy": chp, "instructor": layout.instructor, "students": layout.students,
                "servers_python_bin": users_bin, "servers_config": str(layout.root / "user-servers"),
                "exchange": str(layout.exchange), "course_id": COURSE_ID, "service_port": free_port(),
                "grader": layout.grader, "grader_python_bin": grader_bin, "course_root": str(layout.course),
                "grader_config": str(layout.root / "formgrader")}
    (layout.state / "settings.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    log = Path(tempfile.gettempdir()) / f"{layout.name}-jupyterhub.log"
    log.unlink(missing_ok=True)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    node = os.path.dirname(os.path.realpath(chp))
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{node}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    env["ATTN_HUB_SETTINGS"] = str(layout.state / "settings.json")  # read by course/hub/jupyterhub_config.py
    process = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f",
                                str(HUB_FILES / "jupyterhub_config.py")], cwd=layout.state, env=env,
                               stdout=fd, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    os.close(fd)
    say(f"starting JupyterHub on 127.0.0.1:{port} (its log: {log})")
    _wait(process, log, port, "/hub/api/", "the hub answering")
    _wait(process, log, port, f"/services/{COURSE_ID}/", "the formgrader service answering")
    return process, log


def _stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()  # JupyterHub stops the users' servers, the service and the proxy
    try:
        process.wait(timeout=120)  # it gives each server, and the service, some 30 s to stop
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextmanager
def running(layout: HubLayout, port: int = 0, release: tuple[str, ...] = ()):
    if os.geteuid() != 0:
        raise HubError(NOT_ROOT)
    process, port = None, port or free_port()
    try:
        passwords = make_users(layout)
        make_folders(layout)
        users_bin, chp = users_environment(), proxy()
        grader_bin = make_course(layout)
        for assignment in release:
            say(f"releasing {assignment} (nbgrader generate_assignment, release_assignment)")
            as_user(layout.grader, f"nbgrader generate_assignment {assignment} && nbgrader release_assignment "
                    f"{assignment}", grader_bin, layout.course)
        process, log = _start(layout, port, users_bin, grader_bin, chp)
        yield Running(layout, f"http://127.0.0.1:{port}/", passwords, users_bin, grader_bin, log, process)
    finally:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave accounts behind
        try:
            say(f"stopping the hub; removing its accounts, their homes and {layout.root}")
            _stop(process)
            remove_users(layout)
            subprocess.run(["rm", "-rf", str(layout.root)], check=False)
        finally:
            signal.signal(signal.SIGINT, previous)


def _show(hub: Running) -> None:
    width = max(len(u) for u in hub.passwords)
    print(f"\nThe course's hub is at {hub.url} (this machine only; from another: ssh -L "
          f"{hub.url.split(':')[2].rstrip('/')}:127.0.0.1:{hub.url.split(':')[2].rstrip('/')} THIS-MACHINE)\n")
    print("Logins (user, password; for this run only):")
    for user, password in hub.passwords.items():
        role = "the instructor: the hub's Services menu opens the formgrader" if user == hub.layout.instructor \
            else "a student: the Assignments tab is in JupyterLab's Nbgrader menu"
        print(f"  {user:<{width}}  {password}   {role}")
    print(f"\nFormgrader: {hub.formgrader}")
    print(f"The course: {hub.layout.course} (the account {hub.layout.grader}; nbgrader commands as it: "
          f"runuser -u {hub.layout.grader} -- bash -c 'cd {hub.layout.course} && PATH={hub.grader_bin}:$PATH "
          f"nbgrader ...')")
    print(f"The exchange: {hub.layout.exchange}; the hub's log: {hub.log}")
    print("Ctrl-C stops the hub and removes its accounts, their homes and their work.\n", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py hub", description="Start the course on a JupyterHub of this machine, to try it: "
        "an instructor, students and a grader account are made as Unix users (each with a random password, "
        "printed), the formgrader runs as a hub service, assignments go through a shared exchange. Needs root. "
        "Ctrl-C stops it and removes the accounts and everything of theirs.", formatter_class=HelpFormatter)
    parser.add_argument("--port", type=int, default=8000, help="the hub's port on 127.0.0.1 (default 8000)")
    parser.add_argument("--students", type=int, default=3, help="how many student accounts (default 3)")
    parser.add_argument("--name", default="attn-hub", help="prefix of the accounts and of /srv/NAME (default attn-hub)")
    parser.add_argument("--release", action="append", default=None, metavar="ASSIGNMENT",
                        help="assignment to release before the students log in (default part1_scores; "
                             "--release none for none)")
    args = parser.parse_args(argv)
    release = tuple(a for a in (args.release or ["part1_scores"]) if a != "none")
    if os.geteuid() != 0:
        print(f"hub: {NOT_ROOT}", file=sys.stderr)
        return 2
    if status(args.port, "/") or not _port_free(args.port):
        print(f"hub: port {args.port} is in use on 127.0.0.1: choose another with --port", file=sys.stderr)
        return 2
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in the background
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill: the same clean stop as Ctrl-C
    try:
        with running(HubLayout(args.name, args.students), args.port, release) as hub:
            _show(hub)
            code = hub.process.wait()
            print(f"hub: JupyterHub stopped by itself (exit {code}); its log: {hub.log}", file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        return 0
    except HubError as exc:
        print(f"hub: {exc}", file=sys.stderr)
        return 1


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


if __name__ == "__main__":
    sys.exit(main())
