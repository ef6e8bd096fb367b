"""What the Gradescope archive installs: requirements.txt, every runtime dependency pinned to the
version installed here, and setup.sh, which installs them with the same Python if it can.

A grade depends on NumPy's, SymPy's and Hypothesis's versions (what a float comes to, what a
simplification gives, which examples are drawn), so Gradescope must install exactly the versions
the course was built and tried with: those installed in the environment that runs
``attn-grade gradescope``. The pins cover the project's runtime dependencies (pyproject.toml) and,
walked through each one's metadata, theirs, as far as their markers hold here (this Python, this
platform, the extras asked for). A dependency that is not installed here, or whose installed
version does not meet what asks for it, is refused by name: nothing is ever left unpinned.
The pins hold for the Python they were made with (its minor version): setup.sh uses that one on
Gradescope's image if it has it or apt-get can install it, and says so when it has to use another.
"""

from __future__ import annotations

import importlib.metadata
import platform
import re
import sys


class Unpinnable(RuntimeError):
    """A dependency whose version cannot be taken from this environment."""


SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu). To try the
# archive elsewhere, ATTN_AUTOGRADER_ROOT names the folder that stands for /autograder (apt-get is
# then left alone). requirements.txt pins every dependency to the version installed where the
# archive was built, with Python @PINNED@: that Python is used if the image has it or apt-get can
# install it; another one is used saying so, and pip then fails if a pinned version is not made for it.
set -euo pipefail
root="${ATTN_AUTOGRADER_ROOT:-/autograder}"
pinned="@PINNED@"
if [ -z "${ATTN_AUTOGRADER_ROOT:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y python3 python3-venv python3-pip
    if ! "python$pinned" -c "" 2>/dev/null; then
        apt-get update -qq || true
        apt-get install -y "python$pinned" "python$pinned-venv" || echo "setup.sh: no python$pinned package here"
    fi
fi
python=python3
if "python$pinned" -c "" 2>/dev/null; then python="python$pinned"; fi
found="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if [ "$found" != "$pinned" ]; then
    echo "setup.sh: the pins in requirements.txt were made with Python $pinned; this image has Python $found." >&2
    echo "setup.sh: pip installs the same versions if they are made for Python $found, and fails if not." >&2
fi
echo "setup.sh: Python $found ($(command -v "$python")), pins made with Python $pinned"
"$python" -m venv "$root/venv"
"$root/venv/bin/pip" install --upgrade pip
if ! "$root/venv/bin/pip" install -r "$root/source/requirements.txt"; then
    if [ "$found" != "$pinned" ]; then
        echo "setup.sh: choose an image with Python $pinned, or build the archive where Python is $found." >&2
    fi
    exit 1
fi
"""


def setup_sh() -> str:
    """setup.sh, knowing which Python the pins are made with."""
    return SETUP.replace("@PINNED@", python_version())


def python_version() -> str:
    """The Python the pins are made with, as setup.sh compares it: "3.11"."""
    return "%d.%d" % sys.version_info[:2]


def requirements_txt(requirements=None) -> str:
    """The text of the archive's requirements.txt: two lines saying where the pins come from, then
    one ``name==version`` per line."""
    lines = pins(requirements)
    where = f"{platform.python_implementation()} {platform.python_version()}, {platform.system()} {platform.machine()}"
    return (f"# Pinned by attn-grade gradescope with Python {python_version()} ({where}): every runtime\n"
            f"# dependency and theirs, at the version installed there. setup.sh installs these.\n"
            + "".join(f"{line}\n" for line in lines))


def pins(requirements=None) -> list[str]:
    """``name==version`` for each requirement (by default pyproject.toml's runtime dependencies) and
    each of their own, as installed here, sorted by name; Unpinnable if one is missing or does not fit."""
    Requirement = _requirement_class()
    if requirements is None:
        from ..release.release import _dependencies

        requirements = _dependencies()
    found: dict[str, tuple[str, str]] = {}  # normalised name -> (name, version)
    todo = [(_read(Requirement, text, "pyproject.toml"), "pyproject.toml") for text in requirements]
    extras_done: dict[str, set] = {}
    while todo:
        req, wanted_by = todo.pop(0)
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in _extras(wanted_by)):
            continue
        key = _norm(req.name)
        try:
            dist = importlib.metadata.distribution(req.name)
        except importlib.metadata.PackageNotFoundError:
            raise Unpinnable(f"{req.name} ({_asker(wanted_by)} needs it) is not installed in this environment "
                             f"({sys.prefix}), so its version cannot be pinned. Install the project here first "
                             f"(python3 tasks.py setup, or pip install -e .), then build the archive again.") from None
        if not req.specifier.contains(dist.version, prereleases=True):
            raise Unpinnable(f"{dist.metadata['Name']} {dist.version} is installed in this environment, but "
                             f"{_asker(wanted_by)} needs {req}: install what pyproject.toml asks for "
                             f"(python3 tasks.py setup), then build the archive again.")
        new_extras = set(req.extras) - extras_done.get(key, set())
        if key in found and not new_extras:
            continue
        found[key] = (dist.metadata["Name"], dist.version)
        extras_done.setdefault(key, set()).update(req.extras)
        asker = f"{dist.metadata['Name']}[{','.join(sorted(extras_done[key]))}]" if extras_done[key] else \
            dist.metadata["Name"]
        todo += [(_read(Requirement, text, asker), asker) for text in dist.requires or ()]
    return [f"{name}=={version}" for _, (name, version) in sorted(found.items())]


def _read(Requirement, text: str, asker: str):
    try:
        return Requirement(text)
    except Exception as exc:  # noqa: BLE001 - packaging's InvalidRequirement, from either copy
        raise Unpinnable(f"{_asker(asker)} names a requirement that cannot be read, {text!r}: {exc}") from None


def _extras(asker: str) -> list[str]:
    """The extras under which an asker's requirements count: "" always, and those in its [brackets]."""
    inside = re.search(r"\[(.*)\]$", asker)
    return ["", *(inside.group(1).split(",") if inside else [])]


def _asker(asker: str) -> str:
    return "this project" if asker == "pyproject.toml" else re.sub(r"\[.*\]$", "", asker)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_class():
    """packaging's Requirement (markers, specifiers and extras as pip reads them); pip's own copy
    where packaging itself is not installed, as in a fresh virtual environment."""
    try:
        from packaging.requirements import Requirement
    except ImportError:
        try:
            from pip._vendor.packaging.requirements import Requirement
        except ImportError:
            raise Unpinnable("reading the dependencies' metadata needs 'packaging' (or pip) in this environment: "
                             "pip install packaging") from None
    return Requirement
