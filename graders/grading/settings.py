"""Settings: what the environment chooses, read once where a command starts, then passed down.

Every ``ATTN_*`` variable is read here and nowhere else (tests/test_layout.py
holds it). A command (the CLI's ``dispatch``, the Gradescope runner, nbgrader's
hook) builds one ``Settings.from_environ()`` and hands what each part needs to
it: the cache folders to grading, the resident zygote's folder to the sandbox.

    ATTN_GRADE_CACHE      the cache folder (progress, recorded plans, verdicts, passes, kept results);
                          "off" keeps plans, verdicts, passes and kept results in memory only
                          (progress is still written, in the default folder)
    ATTN_GRADE_RUNTIME    the folder of the resident zygote's socket (else $XDG_RUNTIME_DIR/attn-grade,
                          else /tmp/attn-grade-UID)
    ATTN_GRADE_RESIDENT   "0": no resident zygote, one per command
    ATTN_GRADE_LANES      "1": attn-grade check grades in one lane, never two
    ATTN_UNHARDENED       "1": nbgrader's own autograde runs (unprotected), to compare
    ATTN_AUTOGRADER_ROOT  where Gradescope's files are (/autograder), to try its archive locally
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

OFF = ("off", "0", "no")


@dataclass(frozen=True)
class Settings:
    cache: Path = field(default_factory=lambda: _default_cache({}))  # the user's attn-grade cache folder
    disk_caches: bool = True  # plans, verdicts, passes and kept results on disk (in ``cache``)
    runtime: Path = field(default_factory=lambda: _default_runtime({}))  # the resident zygote's socket folder
    resident: bool = True  # a learner's commands share a zygote that outlives them
    one_lane: bool = False  # attn-grade check never forks a second lane
    unhardened: bool = False  # nbgrader's own autograde may run the notebooks unprotected
    autograder_root: Path = Path("/autograder")

    @classmethod
    def from_environ(cls, environ=None) -> Settings:
        env = os.environ if environ is None else environ
        chosen = env.get("ATTN_GRADE_CACHE", "")
        off = chosen.lower() in OFF
        return cls(cache=Path(chosen).expanduser() if chosen and not off else _default_cache(env),
                   disk_caches=not off,
                   runtime=Path(env["ATTN_GRADE_RUNTIME"]) if env.get("ATTN_GRADE_RUNTIME") else _default_runtime(env),
                   resident=env.get("ATTN_GRADE_RESIDENT") != "0",
                   one_lane=env.get("ATTN_GRADE_LANES") == "1",
                   unhardened=env.get("ATTN_UNHARDENED") == "1",
                   autograder_root=Path(env.get("ATTN_AUTOGRADER_ROOT") or "/autograder"))

    @property
    def resident_runtime(self) -> Path | None:
        """The resident zygote's socket folder, or None when each command starts its own."""
        return self.runtime if self.resident else None

    @property
    def plans(self) -> Path | None:
        """The recorded plans' folder (verdicts/, passes/ and kept/ beside it), or None when off."""
        return self.cache / "plans" if self.disk_caches else None


def _default_cache(env) -> Path:
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attn-grade"


def _default_runtime(env) -> Path:
    if env.get("XDG_RUNTIME_DIR"):
        return Path(env["XDG_RUNTIME_DIR"]) / "attn-grade"
    return Path("/tmp") / f"attn-grade-{os.getuid()}"
