"""What can go wrong with a student's code, as the parent sees it: the StudentError family.

The parent's Sandbox raises Timeout and Crashed; a Submission raises Missing and
Raised. Each carries a message in words that speaks to the student: why a process
ended (``exit_words``, ``scratch_words``) is said here too.
"""

from __future__ import annotations

import signal

from .inside.scratch import DEPTH
from .wire import MESSAGE, NAME, WHERE, cut


# What a stub's NotImplementedError says, after the function's name (cli/fullmarks.py keeps such results).
NOT_WRITTEN = "raised NotImplementedError: not written yet"

class StudentError(Exception):
    """Something about the student's code that prevents an answer; message in words."""


def exception_info(info) -> dict:
    """What the worker said about an exception (any JSON: its word), as short texts: its type and
    its classes' names, its message, and the student's line it passed through last. What they
    mean (whether the exception counts) is for the graders to decide, from these alone."""
    info = info if isinstance(info, dict) else {}
    mro = info.get("mro") if isinstance(info.get("mro"), list) else []
    return {"type": cut(info.get("type"), NAME) or "Exception", "mro": [cut(n, NAME) for n in mro[:64]],
            "message": cut(info.get("message"), MESSAGE), "where": cut(info.get("where"), WHERE)}


class Raised(StudentError):
    """The student's code raised. The message leads with the exception and the line of the
    student's file, then the call, shortened."""

    def __init__(self, func, info, call=None):
        self.func, self.info = func, exception_info(info)
        self.type_name, self.mro = self.info["type"], self.info["mro"]
        where = f"\n  at {self.info['where']}" if self.info["where"] else ""
        msg = self.info["message"]
        super().__init__(f"Your code raised {self.type_name}{': ' + msg if msg else ''}{where}\n"
                         f"  when calling {_shortened(call or f'{func}()')}")

    def is_a(self, name):
        return name in self.mro

    @property
    def not_written(self):
        return self.is_a("NotImplementedError")

    def __str__(self):
        if self.not_written:
            return f"{self.func}() {NOT_WRITTEN}"
        return super().__str__()


def _shortened(call: str, lines: int = 6, width: int = 120) -> str:
    """A call's text cut to a few lines of bounded width."""
    rows = [r if len(r) <= width else r[: width - 3] + "..." for r in call.splitlines()]
    return "\n".join(rows[:lines - 1] + ["    ...)"] if len(rows) > lines else rows)


class Missing(StudentError):
    pass


class Timeout(StudentError):
    pass


class BatchTimeout(Timeout):
    """Call ``len(answers)`` of a batch timed out: ``answers`` are those of the calls before it,
    ``call`` the Timeout that call made alone would have raised (Submission.batch)."""

    def __init__(self, answers: list, call: Timeout):
        super().__init__(str(call))
        self.answers, self.call = answers, call


class Crashed(StudentError):
    pass


def exit_words(code, memory_mb=None) -> str:
    """How a process ended, in words to append to a message: killed by the sandbox's memory
    limit (``memory_mb``), by a signal, or its exit status (``code``, as Box.exit_code says)."""
    if memory_mb:
        return f" (killed by the sandbox's memory limit of {memory_mb} MB)"
    if code is None:
        return ""
    if code > 128:  # the sandbox's outer process reports a signal as 128 + its number
        code = 128 - code
    if code < 0:
        try:
            name = signal.Signals(-code).name
            why = {"SIGXCPU": ": the CPU time limit", "SIGKILL": "", "SIGXFSZ": ": the file size limit"}
            return f" (killed by {name}{why.get(name, '')})"
        except ValueError:
            return f" (killed by signal {-code})"
    return f" (exit status {code}: did your code call sys.exit or os._exit?)"


def scratch_words(over, limits) -> str:
    """Why a sandbox ended at a bound of its scratch folder (``over``, inside/scratch.py's CAUSES),
    in words to append to a message; ``limits``: the sandbox's Limits."""
    what = {"size": f"of {limits.scratch_mb} MB on what your code writes to its folder",
            "entries": f"of {limits.scratch_entries} files and folders your code may make in its folder",
            "depth": f"of folders nested {DEPTH} deep in your code's folder"}.get(over)
    if what:
        return f" (killed by the sandbox's limit {what})"
    return " (killed: your code closed one of its folders to the sandbox, which could then not measure it)"
