"""A required exception, and what counts as one: ``expect_raises`` and ``advise``.

The grader decides, never the worker: the worker reports an exception's type, its classes'
names, its message and the student's line it passed through last, as plain data
(sandbox/errors.py), and this module reads them. An exception of the required type counts from
wherever it came, the student's own raise statement or a library call (np.split, a reshape),
as long as no result came back: the contract asks for a ValueError, not for a raise statement.
Where the student's line is no raise statement, the check still gives full points, with the
advice to test first and raise with a clear message.
"""

from __future__ import annotations

import io
import tokenize

import numpy as np

from .checks import Fail, Raised, advice, show

__all__ = ["expect_raises", "advise", "raise_statement", "NOT_RAISED_HERE"]

NOT_RAISED_HERE = advice("the error came from a call that line makes, not from a raise statement of yours")


def expect_raises(sub, func: str, args, *, exception: str, reason: str, test: str, call: str) -> str:
    """``func(*args)`` must raise ``exception`` (``reason`` says why), from anywhere: the contract
    asks for the exception, not for a raise statement, so NumPy's ValueError from np.split or a
    reshape counts as long as no result came back. Returns advice for the student where that
    exception passed last through a line of theirs that is no raise statement (``test`` is what
    to test first), else "": give it with ``advise``, which costs no points."""
    try:
        got = sub.call(func, *args)
    except Raised as exc:
        if exc.not_written:
            raise
        msg = str(exc.info.get("message", ""))
        msg = msg if len(msg) <= 160 else msg[:157] + "..."
        where = f" at {exc.info['where']}" if exc.info.get("where") else ""
        if not exc.is_a(exception):
            raise Fail(f"{call} raised {exc.type_name}{': ' + msg if msg else ''}{where}; raise {exception} "
                       f"instead: {reason}") from None
        if not where or raise_statement(exc.info["where"]):
            return ""
        return (f"{call} raised {exc.type_name} ({msg}){where}\nThat counts. A tip: {NOT_RAISED_HERE}; test "
                f"whether {test} first and raise {exception} with a message of your own ({reason}): it tells the "
                f"caller plainly what is wrong.")
    what = f"an array of shape {got.shape}" if isinstance(got, np.ndarray) else show(got)
    raise Fail(f"{call} returned {what} instead of raising {exception}: {reason}, and carrying on "
               f"silently would drop or invent dimensions")


def raise_statement(where: str) -> bool:
    """Whether the student's line in ``where`` ("line 7: raise ValueError(...)", as the worker
    reports it) holds a raise statement: a ``raise`` keyword among its tokens (so neither a
    comment nor a string that says "raise"). Plain text, read here: for advice only."""
    code = where.partition(": ")[2]
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            found.append(token)
    except (tokenize.TokenError, SyntaxError, ValueError):  # a line cut short: the tokens before it
        pass
    return any(t.type == tokenize.NAME and t.string == "raise" for t in found)


def advise(notes) -> None:
    """Full points, with the first of ``notes`` (texts; "" for none) as the check's message."""
    given = [n for n in notes if n]
    if given:
        raise Fail(given[0], fraction=1.0)
