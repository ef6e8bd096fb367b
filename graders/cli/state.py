"""What the command remembers about one learner's folder: the last check of each
exercise and how many hints were shown.

Kept beside the recorded plans, in the user's cache folder (a Settings'
``cache``: ``$ATTN_GRADE_CACHE``, else ``$XDG_CACHE_HOME`` or ``~/.cache``,
then ``attn-grade/progress/``), one file per folder, named after the folder's real
path: the learner's folder stays as it was handed out, and no sandbox sees the
file. It is the learner's own record, not a grade: a damaged or unwritable file
is simply started afresh, which costs nothing but the progress display.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from ..grading.private import write_atomic
from ..grading.sandboxes import MAX_FILE_BYTES

FORMAT = 1


def digest(path: Path) -> str | None:
    """The file's digest; of a file larger than the sandbox takes, its size (it is never read whole)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                return f"larger than {MAX_FILE_BYTES} bytes: {os.fstat(f.fileno()).st_size}"
        return hashlib.sha256(data).hexdigest()
    except OSError:
        return None


class State:
    def __init__(self, folder: Path, cache: Path):
        """The record of ``folder``, in ``cache`` (a Settings' ``cache``: ATTN_GRADE_CACHE=off
        turns off only the plans on disk, not this record)."""
        self.folder = Path(folder)
        where = os.path.realpath(self.folder)
        self.path = Path(cache) / "progress" / (hashlib.sha256(where.encode()).hexdigest()[:20] + ".json")
        self.data = self._read()
        self.data["folder"] = where

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") == FORMAT and isinstance(data.get("results"), dict) \
                    and isinstance(data.get("hints"), dict):
                return data
        except (OSError, ValueError, AttributeError):
            pass
        return {"format": FORMAT, "results": {}, "hints": {}}

    def save(self) -> None:
        """Write the record whole, the user's alone (file 0600, folders 0700: private.py);
        in a read-only folder, nothing: there is nothing to remember, and nothing is lost."""
        write_atomic(self.path.parent, self.path.name, json.dumps(self.data, indent=1, sort_keys=True))

    # ------------------------------------------------------------ checks
    def record(self, result, path: Path) -> None:
        """Remember ``result`` (an ExerciseResult) of the file at ``path``. Its "seconds" are
        those of the quickest check of the file as it is now: a check that recorded plans (the
        first, or after an upgrade) takes several times as long as the next (check.py splits
        the files onto two lanes by them)."""
        seconds, now, old = round(result.seconds, 3), digest(path), self.last(result.exercise)
        if old is not None and old.get("digest") == now and isinstance(old.get("seconds"), (int, float)):
            seconds = min(seconds, old["seconds"])
        self.data["results"][result.exercise] = {
            "points": round(result.points, 6), "max": round(result.max_points, 6),
            "digest": now, "at": int(time.time()), "seconds": seconds,
            **({"variant": result.variant} if getattr(result, "variant", 0) else {})}  # graded on own numbers

    def last(self, slug: str) -> dict | None:
        entry = self.data["results"].get(slug)
        ok = isinstance(entry, dict) and all(isinstance(entry.get(k), (int, float)) for k in ("points", "max"))
        return entry if ok else None

    def done(self, slug: str) -> bool:
        entry = self.last(slug)
        return entry is not None and entry["points"] >= entry["max"] > 0

    def changed_since(self, slug: str, path: Path) -> bool:
        entry = self.last(slug)
        return entry is not None and entry.get("digest") != digest(path)

    # ------------------------------------------------------------ the student's id (variants)
    @property
    def student(self) -> str | None:
        """The id the learner gave for a course with variants (``attn-grade variant --id``), or None."""
        found = self.data.get("student")
        return found if isinstance(found, str) and found.strip() else None

    def set_student(self, student: str | None) -> None:
        if student:
            self.data["student"] = student
        else:
            self.data.pop("student", None)

    # ------------------------------------------------------------ hints
    def hint_level(self, slug: str) -> int:
        level = self.data["hints"].get(slug, 0)
        return level if isinstance(level, int) and level >= 0 else 0

    def set_hint_level(self, slug: str, level: int) -> None:
        if level:
            self.data["hints"][slug] = level
        else:
            self.data["hints"].pop(slug, None)
