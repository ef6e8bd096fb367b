"""What a JupyterHub for the course needs on this machine, made by root and removed again (hub.py):
the names, the shell, and the folders; the rest in the modules it lists.

    HubLayout(name, students)   the names: Unix users NAME-teacher, NAME-s1.., the grader account
                             NAME-grader, and the folder /srv/NAME (exchange, the hub's state)
    run / as_user            a command, as root or as one of those users; a HubError naming it when it fails
    make_folders             /srv/NAME: exchange/ (1777, as nbgrader documents), state/ (root's alone),
                             the users' and the formgrader's Jupyter settings (course/hub/)
    hubusers.py              make_users / remove_users: the throwaway accounts
    hubenvs.py               users_environment / grader_environment: the servers' Pythons; proxy
    hubcourse.py             make_course: the grader's copy of the course, built, the roster imported
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HUB_FILES = ROOT / "course" / "hub"
CACHE = Path("/var/cache/attn-hub")  # the environments and the proxy, kept from one start to the next
SYSTEM_PYTHON = "/usr/bin/python3"
COURSE_ID = "attn-exercises"


class HubError(Exception):
    """A step that could not be done, with its cause named for the person who started the hub."""


@dataclass
class HubLayout:
    name: str = "attn-hub"
    count: int = 3

    @property
    def instructor(self) -> str:
        return f"{self.name}-teacher"

    @property
    def students(self) -> list[str]:
        return [f"{self.name}-s{i}" for i in range(1, self.count + 1)]

    @property
    def grader(self) -> str:
        return f"{self.name}-grader"

    @property
    def accounts(self) -> list[str]:
        return [self.instructor, *self.students, self.grader]

    @property
    def root(self) -> Path:
        return Path("/srv") / self.name

    @property
    def exchange(self) -> Path:
        return self.root / "exchange"

    @property
    def state(self) -> Path:
        return self.root / "state"

    @property
    def project(self) -> Path:
        return Path("/home") / self.grader / "attn"

    @property
    def course(self) -> Path:
        return self.project / "course"


def say(text: str) -> None:
    print(f"hub: {text}", flush=True)


def run(cmd: list[str], what: str, log: Path | None = None, **kw) -> str:
    """``cmd``'s output; a HubError naming ``what`` (and the output's tail) when it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if log is not None:
        with log.open("a", encoding="utf-8") as f:
            f.write(f"$ {' '.join(cmd)}\n{done.stdout}{done.stderr}\n")
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise HubError(f"{what} failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def as_user(user: str, command: str, path_bin: str, cwd: Path | None = None, what: str = "",
            input: str | None = None) -> str:
    """``command`` (a bash command line) as ``user``, with a clean environment and ``path_bin`` first on PATH."""
    home = f"/home/{user}"
    env = ["env", "-i", f"HOME={home}", f"USER={user}", f"LOGNAME={user}", "SHELL=/bin/bash", "LANG=C.UTF-8",
           f"PATH={path_bin}:/usr/local/bin:/usr/bin:/bin"]
    line = f"cd {cwd or home} && {command}"
    return run(["runuser", "-u", user, "--", *env, "bash", "-c", line], what or f"{user}: {command}", input=input)


def make_folders(layout: HubLayout) -> None:
    """/srv/NAME made afresh: the exchange, the hub's state, the servers' Jupyter settings."""
    shutil.rmtree(layout.root, ignore_errors=True)
    layout.root.mkdir(parents=True)
    layout.root.chmod(0o755)
    layout.exchange.mkdir(mode=0o1777)
    layout.exchange.chmod(0o1777)  # every student may write, nobody may remove another's files
    layout.state.mkdir(mode=0o700)
    for part in ("user-servers", "formgrader"):  # read by the servers, as their users
        shutil.copytree(HUB_FILES / part, layout.root / part)
        run(["chmod", "-R", "a+rX", str(layout.root / part)], f"opening {layout.root / part}")
