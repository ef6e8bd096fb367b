"""``python3 tasks.py setup`` and ``instructor`` say what they are doing while pip works (a first
install takes minutes): which step, which packages, and a line every so often while pip is silent.
tasks.py is run in this process on a folder of its own, its venv made by a stand-in whose ``python
-m pip`` prints what pip prints, slowly; the output is read as in a CI log (not a terminal)."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What pip 23 prints, piped, for `pip install -e '.[course]'`; a line "sleep N" pauses the stand-in.
PIP_OUTPUT = """\
Obtaining file:///work/main
  Installing build dependencies: started
  Installing build dependencies: finished with status 'done'
Collecting numpy>=1.24 (from attn-exercises==0.1.0)
  Using cached numpy-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl (16.9 MB)
Requirement already satisfied: sympy>=1.12 in ./.venv/lib/python3.11/site-packages (from attn-exercises==0.1.0)
Collecting nbgrader>=0.9 (from attn-exercises==0.1.0)
sleep 0.5
  Downloading nbgrader-0.9.5-py3-none-any.whl (1.5 MB)
Collecting jupyter-server (from nbgrader>=0.9->attn-exercises==0.1.0)
Building wheels for collected packages: attn-exercises
Installing collected packages: numpy, jupyter-server, nbgrader, attn-exercises
sleep 1.2
Successfully installed attn-exercises-0.1.0 jupyter-server-2.14.0 nbgrader-0.9.5 numpy-2.4.6
"""
STAND_IN = """#!{python}
import sys, time
open({argv!r}, "a").write(" ".join(sys.argv[1:]) + "\\n")
for line in {output!r}.splitlines():
    if line.startswith("sleep "):
        time.sleep(float(line.split()[1]))
    else:
        print(line, flush=True)
sys.exit({code})
"""


def _tasks(monkeypatch, tmp_path, code=0, output=PIP_OUTPUT):
    """tasks.py as a module, its venv in tmp_path/venv, made by a stand-in for venv.EnvBuilder."""
    spec = importlib.util.spec_from_file_location("attn_tasks_under_test", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    venv = tmp_path / "venv"
    monkeypatch.chdir(tmp_path)  # paths are shown from here, as .venv is from the project
    monkeypatch.setattr(tasks, "VENV", venv)
    monkeypatch.setattr(tasks, "BIN", venv / "bin")
    monkeypatch.setattr(tasks, "PY", venv / "bin" / "python")
    if hasattr(tasks, "TICK"):
        monkeypatch.setattr(tasks, "TICK", 0.3)
    argv = tmp_path / "argv.txt"
    script = STAND_IN.format(python=sys.executable, argv=str(argv), output=output, code=code)

    class EnvBuilder:
        def __init__(self, **kw):
            pass

        def create(self, where):
            (Path(where) / "bin").mkdir(parents=True)
            (Path(where) / "bin" / "python").write_text(script)
            (Path(where) / "bin" / "python").chmod(0o755)

    monkeypatch.setattr(tasks.venv, "EnvBuilder", EnvBuilder)
    return tasks, argv


@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in is a script with a #! line")
def test_setup_says_which_step_which_packages_and_that_it_is_still_at_work(monkeypatch, tmp_path, capfd):
    tasks, argv = _tasks(monkeypatch, tmp_path)
    tasks.setup("course")
    out = capfd.readouterr().out
    assert "creating the virtual environment" in out, out
    assert "installing" in out, f"the install step is not named:\n{out}"
    installing = out[out.index("installing"):]
    for name in ("numpy", "sympy", "hypothesis", "nbgrader", "matplotlib", "course"):
        assert name in installing, f"the install step does not name {name}:\n{out}"
    assert "still installing" in out, f"no line while pip was silent:\n{out}"
    assert "installing 4 packages" in out and "installed 4 packages" in out, out
    assert "\r" not in out, "carriage returns in a log that is not a terminal"
    long = [line for line in out.splitlines() if len(line) > 80]
    assert not long, f"lines wider than 80 columns: {long}"
    assert "--progress-bar off" in argv.read_text() and "-e .[course]" in argv.read_text()
    assert "Successfully installed" in (tmp_path / "venv" / "pip-install.log").read_text()
    assert json.loads((tmp_path / "venv" / ".installed.json").read_text())["extras"] == ["course"]


@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in is a script with a #! line")
def test_a_failed_install_shows_pips_own_words_and_where_the_log_is(monkeypatch, tmp_path, capfd):
    output = PIP_OUTPUT.split("Building")[0] + textwrap.dedent("""\
        ERROR: Could not find a version that satisfies the requirement nbgrader>=0.9 (from versions: none)
        ERROR: No matching distribution found for nbgrader>=0.9
        """)
    tasks, _ = _tasks(monkeypatch, tmp_path, code=1, output=output)
    with pytest.raises(SystemExit) as stop:
        tasks.setup("course")
    captured = capfd.readouterr()
    said = captured.out + captured.err + str(stop.value.code)
    assert "No matching distribution found for nbgrader>=0.9" in said, said
    assert "pip-install.log" in said and "Traceback" not in said, said
    assert not (tmp_path / "venv" / ".installed.json").exists(), "a failed install was recorded as done"


@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in is a script with a #! line")
def test_on_a_terminal_one_line_is_rewritten_in_place(monkeypatch, tmp_path, capfd):
    tasks, _ = _tasks(monkeypatch, tmp_path)
    monkeypatch.setattr(tasks, "_terminal", lambda: True, raising=False)
    tasks.setup()
    out = capfd.readouterr().out
    assert "\r" in out and "still installing" not in out.replace("\r", "\n").splitlines()[-1], out
    assert "installed 4 packages" in out
