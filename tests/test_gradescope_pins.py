"""The Gradescope archive's requirements.txt pins every runtime dependency, and theirs, to the version
installed where the archive is built (graders/classroom/gradescope/pins.py): grades depend on NumPy's, SymPy's
and Hypothesis's versions. The slow test builds an archive and runs its setup.sh in a folder that
stands for /autograder, then compares what that fresh venv holds with the pins."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graders.cli import main

LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)$")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(archive: Path) -> dict:
    """name -> version of the archive's requirements.txt, each line checked to be name==version."""
    with zipfile.ZipFile(archive) as z:
        text = z.read("requirements.txt").decode()
    pins = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = LINE.match(line)
        assert m, f"requirements.txt: {line!r} is not name==version"
        pins[_norm(m.group(1))] = m.group(2)
    return pins


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    target = tmp_path_factory.mktemp("pins") / "autograder.zip"
    assert main(["gradescope", str(target), "--exercises", "softmax"]) == 0
    return target


def test_every_line_pins_one_version_and_the_grading_libraries_are_there(archive):
    pins = _pins(archive)
    assert {"numpy", "sympy", "mpmath", "hypothesis", "sortedcontainers", "tqdm", "watchdog"} <= set(pins), pins
    for name, version in pins.items():
        assert version == importlib.metadata.version(name), f"{name}: pinned {version}, installed here " \
                                                           f"{importlib.metadata.version(name)}"


def test_the_archive_says_which_python_the_pins_were_made_with(archive):
    with zipfile.ZipFile(archive) as z:
        requirements, setup = z.read("requirements.txt").decode(), z.read("setup.sh").decode()
    here = "%d.%d" % sys.version_info[:2]
    assert f"Python {here}" in requirements.splitlines()[0] + requirements.splitlines()[1], requirements[:300]
    assert f'pinned="{here}"' in setup, "setup.sh does not know which Python the pins were made with"


def test_a_dependency_not_installed_here_is_refused_by_name(tmp_path, monkeypatch, capsys):
    from graders.classroom.release import release

    real = release._dependencies
    monkeypatch.setattr(release, "_dependencies", lambda: [*real(), "attn-no-such-package>=1"])
    target = tmp_path / "a.zip"
    assert main(["gradescope", str(target), "--exercises", "softmax"]) != 0
    err = capsys.readouterr().err
    assert "attn-no-such-package" in err and "not installed" in err and "Traceback" not in err, err
    assert not target.exists(), "an archive was written with a dependency left unpinned"


def test_a_marker_that_does_not_hold_here_pins_nothing():
    from graders.classroom.gradescope.pins import pins

    lines = pins(['tqdm; python_version < "3"', "sympy"])
    names = {_norm(line.split("==")[0]) for line in lines}
    assert names == {"sympy", "mpmath"}, lines
    if sys.platform != "win32":  # tqdm needs colorama on Windows only
        assert "colorama" not in {_norm(x.split("==")[0]) for x in pins(["tqdm"])}
    # an extra asked for brings what its markers name: hypothesis[watchdog] needs watchdog
    assert {_norm(x.split("==")[0]) for x in pins(["hypothesis[watchdog]"])} == \
        {"hypothesis", "sortedcontainers", "watchdog"}


def test_an_installed_version_that_does_not_fit_is_refused():
    from graders.classroom.gradescope.pins import Unpinnable, pins

    with pytest.raises(Unpinnable, match=r"numpy \S+ is installed .* needs numpy<1"):
        pins(["numpy<1"])


@pytest.mark.slow
@pytest.mark.system
def test_setup_sh_installs_exactly_the_pins(archive, tmp_path):
    root = tmp_path / "autograder"
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env["ATTN_AUTOGRADER_ROOT"] = str(root)
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    python = root / "venv" / "bin" / "python"
    freeze = subprocess.run([str(python), "-m", "pip", "freeze", "--all"], capture_output=True, text=True,
                            check=True).stdout
    there = {_norm(n): v for n, v in (line.split("==") for line in freeze.splitlines() if "==" in line)}
    for tool in ("pip", "setuptools", "wheel"):  # the venv's own tools, not the grader's dependencies
        there.pop(tool, None)
    pins = _pins(archive)
    assert there == pins, f"the fresh venv holds {there}; the archive pins {pins}"
    assert pins == {n: importlib.metadata.version(n) for n in pins}, "the pins are not this environment's"
    check = subprocess.run([str(python), "-m", "pip", "check"], capture_output=True, text=True)
    assert check.returncode == 0, f"the pins miss a dependency: {check.stdout}"
    imported = subprocess.run([str(python), "-c", "import numpy, sympy, hypothesis, tqdm, watchdog"],
                              capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr


@pytest.mark.system
def test_setup_sh_says_when_the_image_has_another_python(archive, tmp_path):
    """The pins made with a Python this machine has not: setup.sh says so, and why pip fails."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
    setup = root / "source" / "setup.sh"
    here = "%d.%d" % sys.version_info[:2]
    setup.write_text(setup.read_text().replace(f'pinned="{here}"', 'pinned="3.99"'))
    (root / "source" / "requirements.txt").write_text("attn-no-such-package==1.0\n")
    env = {**os.environ, "ATTN_AUTOGRADER_ROOT": str(root), "PIP_NO_INDEX": "1"}  # pip fails at once, offline
    done = subprocess.run(["bash", str(setup)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "made with Python 3.99; this image has Python 3." in done.stderr, done.stderr[-2000:]
    assert "choose an image with Python 3.99" in done.stderr, done.stderr[-2000:]
