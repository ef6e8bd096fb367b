"""What the hub's servers run (hub.py): their Python environments, and JupyterHub's proxy.

    users_environment / grader_environment   the Pythons the servers run with (kept in CACHE)
    proxy                    configurable-http-proxy: from PATH, or installed with npm into CACHE

Each environment is built once per set of requirements with the system's /usr/bin/python3 (every
user can read it) and kept in CACHE (/var/cache/attn-hub); the students'
one never holds this project, the grader's holds it installed from the grader's copy.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
from pathlib import Path

from .hubsetup import CACHE, HUB_FILES, ROOT, SYSTEM_PYTHON, HubError, HubLayout, run, say


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


def grader_environment(layout: HubLayout) -> str:
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
