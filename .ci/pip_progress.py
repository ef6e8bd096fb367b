"""How tasks.py installs the project: pip install -e .[EXTRAS], saying which packages and, while pip
works, how far it has got (on a terminal one line, rewritten; in a log a line every ``tick`` seconds).
pip's whole output goes to the venv's pip-install.log; if pip fails, its last lines come to the
screen. Standard library only: tasks.py loads it before any virtual environment exists.

    install(root, venv, python, extras, step, tick, tty)   the install, with its progress
    say(text, indent)                                      a sentence wrapped to 79 columns
    shown(path)                                            a path as the user sees it (from the cwd)
"""

import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path


def shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def install(root: Path, venv: Path, python: Path, extras, step: str, tick: float,
            tty: bool) -> None:
    """pip install -e .[EXTRAS] in ``root`` with ``python`` (of ``venv``), saying which packages and,
    while pip works, how far it has got (``tty``: one line, rewritten; else a line every ``tick`` s).
    pip's whole output goes to the venv's pip-install.log; if it fails, its last lines come to the screen."""
    log, start = venv / "pip-install.log", time.monotonic()
    say(f"{step}installing into {shown(venv)} {_what(root, extras)}. The first time takes minutes; "
         f"pip's own output goes to {shown(log)}", len(step))
    cmd = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off",
           "-e", "." + (f"[{','.join(extras)}]" if extras else "")]
    seen = {"doing": "starting pip", "found": 0, "last": "", "installed": 0, "news": [], "tail": []}
    said = start
    with open(log, "w", encoding="utf-8") as out:
        out.write("+ " + " ".join(cmd) + "\n")
        pip = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")
        reader = threading.Thread(target=_read, args=(pip.stdout, out, seen), daemon=True)
        reader.start()
        try:
            while True:
                try:
                    code = pip.wait(timeout=min(1.0, tick / 3))
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
                elif now - said >= tick:
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
        sys.exit(f"the install did not finish; pip's whole output is in {shown(log)}; "
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


def _what(root: Path, extras) -> str:
    """The packages pyproject.toml names for attn-grade itself and for each extra, as a sentence."""
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
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


def say(text: str, indent: int = 0) -> None:
    print(textwrap.fill(text, 79, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False),
          flush=True)


def _show(text: str, tty: bool, keep: bool = True) -> None:
    """A progress line: in a log, printed; on a terminal, written over the last one (kept if ``keep``)."""
    if not tty:
        print(text[:79], flush=True)
        return
    sys.stdout.write("\r" + text[:_width()].ljust(_width()) + ("\n" if keep else ""))
    sys.stdout.flush()


def _width() -> int:
    return max(20, min(shutil.get_terminal_size().columns, 120) - 1)


def _packages(n: int) -> str:
    return f"{n} package" if n == 1 else f"{n} packages"


def _took(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"
