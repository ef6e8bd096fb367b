"""What can go wrong with a student's code, as the parent sees it: the StudentError family.

The parent's Worker raises Timeout and Crashed; a Submission raises Missing and
Raised. Each carries a message in words that speaks to the student.
"""

from __future__ import annotations


class StudentError(Exception):
    """Something about the student's code that prevents an answer; message in words."""


class Raised(StudentError):
    """The student's code raised. The message leads with the exception and the line of the
    student's file, then the call, shortened."""

    def __init__(self, func, info, call=None):
        self.func, self.info = func, info
        self.type_name = str(info.get("type", "Exception"))
        mro = info.get("mro")
        self.mro = [str(n) for n in mro] if isinstance(mro, list) else []  # the worker's word: any JSON
        where = f"\n  at {info['where']}" if info.get("where") else ""
        msg = str(info.get("message", ""))
        super().__init__(f"Your code raised {self.type_name}{': ' + msg if msg else ''}{where}\n"
                         f"  when calling {_shortened(call or f'{func}()')}")

    def is_a(self, name):
        return name in self.mro

    @property
    def not_written(self):
        return self.is_a("NotImplementedError")

    def __str__(self):
        if self.not_written:
            return f"{self.func}() raised NotImplementedError: not written yet"
        return super().__str__()


def _shortened(call: str, lines: int = 6, width: int = 120) -> str:
    """A call's text cut to a few lines of bounded width."""
    rows = [r if len(r) <= width else r[: width - 3] + "..." for r in call.splitlines()]
    return "\n".join(rows[:lines - 1] + ["    ...)"] if len(rows) > lines else rows)


class Missing(StudentError):
    pass


class Timeout(StudentError):
    pass


class Crashed(StudentError):
    pass
