"""Where the learner's files are, and which exercise a word on the command line means.

Forgiving on purpose: the exercises folder is found from anywhere inside the
project and from inside the folder itself; an exercise may be named by its
slug, its number in ``attn-grade list`` or its file (``exercises/softmax.py``);
a near miss (``attn``, ``Softmax.py``) gets a suggestion, never a guess.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from .. import registry
from .name import COMMAND

SLUGS = [e.slug for e in registry.EXERCISES]


def refuse(parser, message: str):
    """What the learner typed names nothing here (an exercise, a file, a folder): say so, with
    the suggestion, in a line or two, without argparse's usage block, which would bury it.
    Exit status 2, as for any usage error."""
    import sys

    from .term import fit

    parser.exit(2, fit(f"{parser.prog}: error: {message}", stream=sys.stderr) + "\n")


class Unknown(ValueError):
    """A word that names no exercise; the message says what was meant, where it can tell."""


@dataclass(frozen=True)
class Target:
    slug: str
    path: Path  # the file to grade


def holds_exercises(folder: Path) -> bool:
    return folder.is_dir() and (folder.name == "exercises" or any((folder / f"{s}.py").is_file() for s in SLUGS))


def folder_or_refuse(parser, chosen: Path | None) -> Path:
    """The learner's exercises folder: ``chosen`` (--dir), else the one found from here; else refuse."""
    folder = chosen or find_folder()
    if folder is None:
        refuse(parser, "no exercises/ folder here or above; run this inside the project or pass --dir")
    return folder


def find_folder(start: Path | None = None) -> Path | None:
    """exercises/ in ``start`` (default: the working folder) or above it, or ``start``
    itself when it holds the exercise files; None if there is none."""
    here = Path(start or Path.cwd()).resolve()
    if (here / "exercises").is_dir():
        return here / "exercises"
    if holds_exercises(here):
        return here
    for parent in here.parents:
        if holds_exercises(parent / "exercises"):
            return parent / "exercises"
    return None


def shown(path: Path) -> str:
    """``path`` as the learner would type it from the working folder: relative when that is
    short (``exercises``, ``../course/lessons/...``), else absolute."""
    real, here = os.path.realpath(path), os.path.realpath(os.getcwd())
    rel = os.path.relpath(real, here)
    return rel if rel.split(os.sep)[:3].count("..") < 3 else real


def resolve(word: str, folder: Path) -> Target:
    """The exercise ``word`` names: a slug, a number from ``list``, or a file name or path."""
    if word.isdigit():
        n = int(word)
        if 1 <= n <= len(SLUGS):
            return Target(SLUGS[n - 1], folder / f"{SLUGS[n - 1]}.py")
        raise Unknown(f"there is no exercise {n}: they are numbered 1 to {len(SLUGS)} ({COMMAND} list)")
    if word.endswith(".py") or "/" in word or "\\" in word:
        return _file(Path(word), folder)
    if word in SLUGS:
        return Target(word, folder / f"{word}.py")
    normal = word.lower().replace("-", "_")
    if normal in SLUGS:
        return Target(normal, folder / f"{normal}.py")
    raise Unknown(f"unknown exercise {word!r}{_did_you_mean(normal)}")


def _file(path: Path, folder: Path) -> Target:
    if path.stem in SLUGS:
        found = path if path.exists() or not (folder / path.name).exists() else folder / path.name
        return Target(path.stem, found)
    close = _close(path.stem.lower().replace("-", "_"))
    if close and (path.exists() or (folder / path.name).exists()):
        raise Unknown(f"{path.name} is not an exercise file: the grader looks for {close}.py; "
                      f"rename the file to {close}.py and check it again")
    raise Unknown(f"{path.name} is not an exercise file{_did_you_mean(path.stem.lower(), '.py')}")


def _close(word: str) -> str | None:
    starts = [s for s in SLUGS if s.startswith(word) or word.startswith(s)] if len(word) >= 3 else []
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(word, SLUGS, n=1, cutoff=0.6)
    return close[0] if close else None


def _did_you_mean(word: str, suffix: str = "") -> str:
    close = _close(word)
    if close:
        return f"; did you mean {close}{suffix}?"
    return f"; the exercises are: {', '.join(SLUGS)} (or their numbers, 1 to {len(SLUGS)})"


def near_files(folder: Path, slug: str) -> list[str]:
    """Files in ``folder`` that look like a misnamed ``<slug>.py`` (Softmax.py, softmax (1).py, sofmax.py)."""
    if not folder.is_dir():
        return []
    want, found = f"{slug}.py", []
    for p in sorted(folder.iterdir()):
        name = p.name
        if not p.is_file() or name == want or (p.suffix == ".py" and p.stem in SLUGS):
            continue
        stem = name.lower().split(".")[0].strip()
        if name.lower() == want or stem == slug or stem.startswith(slug) \
                or difflib.SequenceMatcher(None, stem, slug).ratio() >= 0.8:
            found.append(name)
    return found


def missing_file_hint(folder: Path, slug: str) -> str:
    """What to do when ``<slug>.py`` is missing but a near miss exists; "" if none does."""
    near = near_files(folder, slug)
    if not near:
        return ""
    names = " and ".join(near[:2])
    return f"there is {names} beside it: rename it to {slug}.py"  # the problem has named the folder
