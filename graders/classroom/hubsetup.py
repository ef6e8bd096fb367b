"""What a JupyterHub for the course needs on this machine, made by root and removed again (hub.py).

    Layout(name, students)   the names: Unix users NAME-teacher, NAME-s1.., the grader account
                             NAME-grader, and the folder /srv/NAME (exchange, the hub's state)
    make_users / remove_users     throwaway accounts with random passwords; only accounts this module
                                  made (marked in their GECOS field) are ever removed
    make_folders             /srv/NAME: exchange/ (1777, as nbgrader documents), state/ (root's alone),
                             the users' and the formgrader's Jupyter settings (course/hub/)
    users_environment / grader_environment   the Pythons the servers run with (kept in CACHE)
    proxy                    configurable-http-proxy: from PATH, or installed with npm into CACHE
    make_course              the grader's copy of this project, its course built, roster imported

Each environment is built once per set of requirements with the system's /usr/bin/python3 (every
user can read it) and kept in CACHE (/var/cache/attn-hub); the students'
one never holds this project, the grader's holds it installed from the grader's copy.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HUB_FILES = ROOT / "course" / "hub"
CACHE = Path("/var/cache/attn-hub")  # the environments and the proxy, kept from one start to the next
SYSTEM_PYTHON = "/usr/bin/python3"
MARK = "attn-grade hub try-out"  # the GECOS field of every account made here
COURSE_ID = "attn-exercises"


class HubError(Exception):
    """A step that could not be done, with its cause named for the person who started the hub."""


@dataclass
class Layout:
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


# --- accounts -----------------------------------------------------------------------------------

def _ours(user: str) -> bool | None:
    """True: an account made here; False: someone else's; None: no such account."""
    try:
        return pwd.getpwnam(user).pw_gecos == MARK
    except KeyError:
        return None


def _pids_of(uids: set[int]) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid = next(int(line.split()[1]) for line in (entry / "status").read_text().splitlines()
                           if line.startswith("Uid:"))
            except (OSError, StopIteration, ValueError):
                continue
            if uid in uids:
                pids.append(int(entry.name))
    return pids


def end_processes(users: list[str]) -> None:
    """Ends every process of these accounts (all made here): TERM, then KILL after 10 s."""
    uids = {pwd.getpwnam(u).pw_uid for u in users if _ours(u)}
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        for pid in _pids_of(uids):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while _pids_of(uids) and time.monotonic() < deadline:
            time.sleep(0.2)


def remove_users(layout: Layout) -> None:
    """Removes the accounts made here, their processes and homes; leaves anyone else's alone."""
    mine = [u for u in layout.accounts if _ours(u)]
    end_processes(mine)
    for user in mine:
        run(["userdel", "--remove", user], f"removing the account {user}")


def make_users(layout: Layout) -> dict[str, str]:
    """Fresh accounts (an earlier run's are removed first); their random hub passwords, by name."""
    taken = [u for u in layout.accounts if _ours(u) is False]
    if taken:
        raise HubError(f"the account(s) {', '.join(taken)} already exist and were not made by this command: "
                       f"choose another --name")
    remove_users(layout)
    passwords = {}
    for user in layout.accounts:
        run(["useradd", "--create-home", "--shell", "/bin/bash", "--comment", MARK, user], f"creating the account {user}")
        os.chmod(f"/home/{user}", 0o700)  # a student's work is theirs alone
        if user != layout.grader:  # the grader account never logs in: the hub starts its service
            passwords[user] = secrets.token_urlsafe(9)
    lines = "".join(f"{u}:{p}\n" for u, p in passwords.items())
    run(["chpasswd"], "setting the passwords", input=lines)
    return passwords


# --- folders, environments, the proxy -------------------------------------------------------------

def make_folders(layout: Layout) -> None:
    shutil.rmtree(layout.root, ignore_errors=True)
    layout.root.mkdir(parents=True)
    layout.root.chmod(0o755)
    layout.exchange.mkdir(mode=0o1777)
    layout.exchange.chmod(0o1777)  # every student may write, nobody may remove another's files
    layout.state.mkdir(mode=0o700)
    for part in ("user-servers", "formgrader"):  # read by the servers, as their users
        shutil.copytree(HUB_FILES / part, layout.root / part)
        run(["chmod", "-R", "a+rX", str(layout.root / part)], f"opening {layout.root / part}")


def _venv(kind: str, requirements: list[str], minutes: str, also: str = "") -> str:
    """A virtual environment with ``requirements``, built once and kept in CACHE (a new one when they or
    ``also`` change); its bin folder."""
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        raise HubError(f"{SYSTEM_PYTHON} is missing: the servers run as other users, who need a Python of the "
                       f"system (apt-get install python3 python3-venv)")
    key = hashlib.sha256("\n".join([kind, *requirements, also]).encode()).hexdigest()[:12]
    env = CACHE / f"{kind}-{key}"
    if (env / ".complete").is_file():
        return str(env / "bin")
    CACHE.mkdir(parents=True, exist_ok=True)
    CACHE.chmod(0o755)
    shutil.rmtree(env, ignore_errors=True)
    log = CACHE / f"{kind}-{key}.log"
    say(f"building the {kind} environment in {env} (once; {minutes}; log: {log})")
    run([SYSTEM_PYTHON, "-m", "venv", str(env)], f"creating {env} (on Debian: apt-get install python3-venv)", log)
    run([str(env / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", *requirements],
        f"installing {kind}'s packages into {env}", log)
    run(["chmod", "-R", "a+rX", str(env)], f"opening {env} to the hub's users")
    (env / ".complete").write_text("\n".join(requirements) + "\n")
    return str(env / "bin")


def _hub_version() -> str:
    return importlib.metadata.version("jupyterhub")  # the single-user servers must match the hub


def _hypothesis() -> str:
    """The project's pinned Hypothesis: the public checks' examples depend on its version."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return next(part.strip('",') for part in pyproject.split() if part.startswith('"hypothesis=='))


def users_environment() -> str:
    """What students' (and the instructor's) servers run: JupyterLab, nbgrader, the checks' libraries."""
    bin_ = _venv("users", [f"jupyterhub=={_hub_version()}", "jupyterlab>=4", "nbgrader>=0.9", "ipykernel",
                           "numpy>=1.24", "sympy>=1.12", _hypothesis()], "about 2 minutes")
    _lab_settings(Path(bin_).parent)
    return bin_


def _lab_settings(env: Path) -> None:
    """JupyterLab's defaults for the hub's users (course/hub/lab-settings/): no question about Jupyter's news."""
    overrides = env / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
    overrides.mkdir(parents=True, exist_ok=True)
    for found in (HUB_FILES / "lab-settings").glob("*.json"):
        shutil.copy(found, overrides / found.name)
        (overrides / found.name).chmod(0o644)


def grader_environment(layout: Layout) -> str:
    """What the formgrader service runs: this project from the grader's copy, with the course's tools."""
    pyproject = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    bin_ = _venv("grader", [f"jupyterhub=={_hub_version()}", "-e", f"{layout.project}[course]"], "about 2 minutes",
                 also=pyproject)
    _lab_settings(Path(bin_).parent)
    return bin_


def proxy() -> str:
    """configurable-http-proxy, JupyterHub's proxy (npm): on PATH, or installed once into CACHE."""
    found = shutil.which("configurable-http-proxy")
    if found:
        return found
    local = CACHE / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
    if local.exists():
        return str(local)
    if not shutil.which("npm") or not shutil.which("node"):
        raise HubError("JupyterHub's proxy, configurable-http-proxy, needs Node.js and npm: apt-get install nodejs npm")
    say(f"installing configurable-http-proxy with npm into {local.parents[2]}")
    run(["npm", "install", "--prefix", str(local.parents[2]), "--no-audit", "--no-fund", "configurable-http-proxy@5"],
        "npm install configurable-http-proxy")
    return str(local)


# --- the course -----------------------------------------------------------------------------------

def _project_files() -> list[str]:
    """The project's files as they are now, but those git ignores (venvs, grades, students' work)."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = run(["git", "-c", f"safe.directory={ROOT}", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                   "--exclude-standard"], "listing the project's files (git ls-files)")
        return [p for p in out.split("\0") if p and (ROOT / p).is_file()]
    skip = {".git", ".venv", "graded", "demo-out", "__pycache__", ".pytest_cache"}
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def make_course(layout: Layout) -> str:
    """The grader's copy of this project with its course built, the students on the roster and the hub's
    exchange and a "zero" late policy in nbgrader_config_local.py; the grader environment's bin folder."""
    say(f"copying the project to {layout.project}, the grader account's course")
    shutil.rmtree(layout.project, ignore_errors=True)
    for rel in _project_files():
        (layout.project / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, layout.project / rel)
    run(["chown", "-R", f"{layout.grader}:", str(layout.project)], f"giving {layout.project} to {layout.grader}")
    bin_ = grader_environment(layout)
    say("building the course (attn-grade course build) and importing the roster")
    as_user(layout.grader, "attn-grade course build", bin_, layout.project)
    roster = "id,first_name,last_name,email\n" + "".join(
        f"{s},Student,{i},{s}@example.org\n" for i, s in enumerate(layout.students, 1))
    (layout.course / "students.csv").write_text(roster, encoding="utf-8")
    with (layout.course / "nbgrader_config_local.py").open("a", encoding="utf-8") as f:
        f.write(f'\n# set by the hub (graders/classroom/hubsetup.py)\nc.Exchange.root = "{layout.exchange}"\n'
                f'c.LateSubmissionPlugin.penalty_method = "zero"\n')
    run(["chown", f"{layout.grader}:", str(layout.course / "students.csv")], "giving the roster to the grader")
    as_user(layout.grader, "nbgrader db student import students.csv", bin_, layout.course)
    return bin_
