#!/usr/bin/env python3
"""Set up and run the project with nothing but python3 (3.10 or newer).

    python3 tasks.py setup        create .venv with what a learner needs: numpy, sympy,
                                  hypothesis, watchdog and the attn-grade command
    python3 tasks.py lessons      add Jupyter and matplotlib, then open the lessons
    python3 tasks.py demo         add matplotlib, grade the reference solutions and a sample class
                                  of three, and write the class report
    python3 tasks.py test [ARGS]  add the test tools (pytest, nbgrader, a Jupyter kernel)
                                  and run the whole test suite (ARGS go to pytest)
    python3 tasks.py instructor   add nbgrader, to build and grade the course
    python3 tasks.py hub [ARGS]   add JupyterHub, then start the course on a JupyterHub of this
                                  machine, to try (as root; --help says more)

Each command creates (or reuses) the virtual environment in .venv (ATTN_VENV
moves it) and installs again only when pyproject.toml has changed or it needs
an extra that is not there yet. While pip works (minutes, the first time) it
says which packages and how far pip has got; pip's whole output goes to
.venv/pip-install.log.
"""

import sys

if sys.version_info < (3, 10):  # before anything newer Pythons alone can read
    sys.exit("attn-grade needs Python 3.10 or newer; this is Python %d.%d (%s)."
             % (sys.version_info[0], sys.version_info[1], sys.executable))

import hashlib
import json
import os
import re
import shutil
import subprocess
import textwrap
import threading
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("ATTN_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
DEMO_STUDENTS = ROOT / "demo" / "submissions"
DEMO_OUT = ROOT / "demo-out"
DEMO_VARIANTS = ROOT / "demo" / "variants"  # three students, each with their own numbers in hand_scores
TICK = 15.0  # seconds between "still installing" lines in a log (a terminal gets one line, rewritten)


def run(*cmd, check=True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def setup(*extras: str) -> None:
    """Create .venv and install the project (editable) with ``extras`` and those already there."""
    stamp = VENV / ".installed.json"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        had = json.loads(stamp.read_text())
    except (OSError, ValueError):
        had = {}
    wanted = sorted(set(extras) | set(had.get("extras", [])))
    if had.get("digest") == digest and set(extras) <= set(had.get("extras", [])) and PY.exists():
        return
    fresh = not PY.exists()
    if fresh:
        _create_venv("[1/2] ")
    _install(wanted, "[2/2] " if fresh else "")
    stamp.write_text(json.dumps({"digest": digest, "extras": wanted}))
    if not extras:
        print(f"\nready: activate it with '. {_shown(BIN / 'activate')}', then 'attn-grade list'", flush=True)


def _create_venv(step: str = "") -> None:
    print(f"{step}creating the virtual environment in {_shown(VENV)}", flush=True)
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(VENV, ignore_errors=True)
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        sys.exit(f"could not create {_shown(VENV)} ({exc}).\nOn Debian or Ubuntu, Python's venv module "
                 f"comes in its own package: 'sudo apt install python{version}-venv', then run this again.")


# ------------------------------------------------------------------ pip, and how far it has got
def _install(extras, step: str) -> None:
    """pip install -e .[EXTRAS], saying which packages and, while pip works, how far it has got. pip's
    whole output goes to the venv's pip-install.log; if it fails, its last lines come to the screen."""
    log, start = VENV / "pip-install.log", time.monotonic()
    _say(f"{step}installing into {_shown(VENV)} {_what(extras)}. The first time takes minutes; "
         f"pip's own output goes to {_shown(log)}", len(step))
    cmd = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off",
           "-e", "." + (f"[{','.join(extras)}]" if extras else "")]
    seen = {"doing": "starting pip", "found": 0, "last": "", "installed": 0, "news": [], "tail": []}
    tty, said = _terminal(), start
    with open(log, "w", encoding="utf-8") as out:
        out.write("+ " + " ".join(cmd) + "\n")
        pip = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")
        reader = threading.Thread(target=_read, args=(pip.stdout, out, seen), daemon=True)
        reader.start()
        try:
            while True:
                try:
                    code = pip.wait(timeout=min(1.0, TICK / 3))
                    reader.join()
                except subprocess.TimeoutExpired:
                    code = None
                now = time.monotonic()
                while seen["news"]:
                    _show(f"  {_took(now - start)}: {seen['news'].pop(0)}", tty)
                    said = now
                if code is not None:
                    break
                if tty:
                    _show(f"  {_took(now - start)}: {_doing(seen)}", tty, keep=False)
                elif now - said >= TICK:
                    _show(f"  {_took(now - start)}: still {_doing(seen)}", tty)
                    said = now
        except KeyboardInterrupt:
            pip.kill()
            sys.exit("\ninterrupted: the same command starts the install again")
    if tty:
        sys.stdout.write("\r" + " " * _width() + "\r")
    if code != 0:
        print(f"pip failed (exit status {code}) after {_took(now - start)}; its last lines:", file=sys.stderr)
        print("\n".join(f"    {line}" for line in seen["tail"][-15:]), file=sys.stderr)
        sys.exit(f"the install did not finish; pip's whole output is in {_shown(log)}; "
                 f"the same command tries again")
    print(f"installed {_packages(seen['installed'])} in {_took(now - start)}", flush=True)


def _read(stream, log, seen: dict) -> None:
    """pip's output, line by line, into the log and into ``seen``: what pip is doing, what was found."""
    for line in stream:
        log.write(line)
        log.flush()
        seen["tail"] = [*seen["tail"][-24:], line.rstrip()]
        text = line.strip()
        found = re.match(r"(?:Collecting|Requirement already satisfied:) ([\w.-]+)|Processing \S*/([\w.]+)", text)
        if found:
            if not seen["found"]:
                seen["news"].append("finding the packages (downloading those not in pip's cache)")
            seen["found"] += 1
            seen["last"] = found.group(1) or found.group(2)
            seen["doing"] = "finding the packages"
        elif text.startswith("Installing build dependencies") and seen["doing"] == "starting pip":
            seen["doing"] = "preparing attn-grade's own package"
            seen["news"].append(seen["doing"])
        elif text.startswith(("Building wheel", "Building editable")):
            seen["doing"] = "building attn-grade's package"
        elif text.startswith("Installing collected packages:"):
            seen["doing"] = f"installing {_packages(len(text.split(':', 1)[1].split(',')))}"
            seen["news"].append(f"{seen['doing']}, often the longest step")
        elif text.startswith("Successfully installed"):
            seen["installed"] = len(text.split()) - 2


def _doing(seen: dict) -> str:
    if seen["doing"] == "finding the packages":
        return f"finding the packages: {seen['found']} so far, the last {seen['last']}"
    return seen["doing"]


def _what(extras) -> str:
    """The packages pyproject.toml names for attn-grade itself and for each extra, as a sentence."""
    try:
        text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        try:
            import tomllib

            project = tomllib.loads(text)["project"]
            lists = {"": project["dependencies"], **project.get("optional-dependencies", {})}
        except ImportError:  # Python 3.10: the lists read plainly
            blocks = re.finditer(r"^([\w-]+)\s*=\s*\[(.*?)\]", re.sub(r"#[^\n]*", "", text), re.S | re.M)
            lists = {"" if m.group(1) == "dependencies" else m.group(1): re.findall(r'"([^"]+)"', m.group(2))
                     for m in blocks}
        names = {k: [re.match(r"[A-Za-z0-9_.-]+", d).group(0) for d in v] for k, v in lists.items()}
    except (OSError, KeyError, AttributeError, ValueError):
        return "the project" + "".join(f", its {e!r} extra" for e in extras) + " and what they need"
    named, parts = [], []
    for group in ("", *extras):
        new = [n for n in names.get(group, []) if n not in named]
        named += new
        label = f"the {group!r} extra" if group else "attn-grade's own"
        if new:
            parts.append(f"{', '.join(new)} ({label})")
    return f"{len(named)} packages and what they need in turn: " + "; ".join(parts)


def _say(text: str, indent: int = 0) -> None:
    print(textwrap.fill(text, 79, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False),
          flush=True)


def _show(text: str, tty: bool, keep: bool = True) -> None:
    """A progress line: in a log, printed; on a terminal, written over the last one (kept if ``keep``)."""
    if not tty:
        print(text[:79], flush=True)
        return
    sys.stdout.write("\r" + text[:_width()].ljust(_width()) + ("\n" if keep else ""))
    sys.stdout.flush()


def _terminal() -> bool:
    return sys.stdout.isatty()


def _width() -> int:
    return max(20, min(shutil.get_terminal_size().columns, 120) - 1)


def _packages(n: int) -> str:
    return f"{n} package" if n == 1 else f"{n} packages"


def _took(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def lessons() -> int:
    """Install Jupyter and matplotlib, then open course/lessons/ in Jupyter."""
    setup("lessons")
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # Jupyter refuses root without it
    return run(BIN / "jupyter", "notebook", *root, ROOT / "course" / "lessons", check=False)


def demo() -> int:
    """Grade the reference solutions, then the sample class; show each student's feedback; write
    the class report (its plots need matplotlib, the 'report' extra)."""
    setup("report")
    grade = BIN / "attn-grade"
    print("\n=== The reference solutions (every check should pass) ===\n", flush=True)
    code = run(grade, "check", "--dir", "solutions", "--only-failed", check=False)
    if code != 0:
        print("the reference solutions did not get full marks: this is a bug", file=sys.stderr)
        return code
    print("\n=== Batch-grading the sample class in demo/submissions ===\n", flush=True)
    shutil.rmtree(DEMO_OUT, ignore_errors=True)  # a fresh demo every time
    run(grade, "grade", DEMO_STUDENTS, "--out", DEMO_OUT)
    for student in sorted(p for p in DEMO_STUDENTS.iterdir() if p.is_dir()):
        print(f"\n=== Feedback for {student.name} (checks that lost points) ===\n", flush=True)
        run(grade, "show", DEMO_OUT / "students" / student.name / "results.json", "--only-failed")
    if run(grade, "report", DEMO_OUT, check=False) == 0:
        print(f"\nThe class report: {(DEMO_OUT / 'report.html').as_uri()} (open it in a browser)")
    print("\n=== Each student their own numbers: demo/variants graded with --variants ===\n", flush=True)
    variants_out = DEMO_OUT / "variants"
    run(grade, "grade", DEMO_VARIANTS, "--out", variants_out, "--variants", "--assignment", "part1_scores")
    for student in ("eli", "fay"):
        print(f"\n--- {student} gives the command her id once; it shows her numbers ---", flush=True)
        run(grade, "variant", "--id", student, "--dir", DEMO_VARIANTS.relative_to(ROOT) / student)
    print("\n--- fay's feedback (checks that lost points) ---\n", flush=True)
    run(grade, "show", variants_out / "students" / "fay" / "results.json", "--only-failed")
    print(f"\nThe gradebook is {DEMO_OUT / 'gradebook.csv'}; each student's results.json is in "
          f"{DEMO_OUT / 'students'}/<student>/.")
    return 0


def test(extra) -> int:
    """Run the whole test suite (two workers in parallel), slow and system tests included; a plain
    ``pytest`` is the quick run, without them (pyproject.toml)."""
    setup("test")
    # -m "": slow and system too; the ten slowest tests are listed at the end (CI's log keeps them).
    return run(PY, "-m", "pytest", "-n", "2", "-m", "", "--durations=10", *extra, check=False)


def main(argv) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if argv else 2
    command, extra = argv[0], argv[1:]
    if command == "setup":
        setup()
        return 0
    if command == "instructor":
        setup("course")
        print()
        _say(f"ready: activate it with '. {_shown(BIN / 'activate')}', then 'attn-grade course build' "
             f"(README: Running the course with nbgrader)")
        return 0
    if command == "lessons":
        return lessons()
    if command == "demo":
        return demo()
    if command == "test":
        return test(extra)
    if command == "hub":  # the hub's own process: Ctrl-C must reach its clean-up, not a wrapper's kill
        setup("hub")
        os.execv(str(PY), [str(PY), "-m", "graders.classroom.hub", *extra])
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
