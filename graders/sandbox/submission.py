"""One student file, loaded in a confined worker: what graders call.

``Submission`` gets a process from its student's sandbox (``Sandbox``,
graders/sandbox/sandbox.py), imports the file there and calls its functions.
Student code never runs in this process: each call travels as plain data
(``request``) and every answer is decoded and validated by wire.py
(``interpret``) before anyone looks at it.
"""

from __future__ import annotations

import base64
import reprlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import wire
from .errors import BatchTimeout, Crashed, Missing, Raised, StudentError, Timeout, exception_info
from .sandbox import Sandbox
from .wire import NAME


@dataclass
class Imported:
    """How the import went."""

    ready: bool
    message: str = ""
    functions: list = field(default_factory=list)
    measures: list = field(default_factory=list)  # how the worker was confined, in words
    missing: list = field(default_factory=list)  # protections the system could not give
    protections: dict = field(default_factory=dict)  # which hold, as flags (inside/confine.py, become_student)


class Submission:
    """One exercise file of a student, loaded in a Sandbox; what graders call.

    ``call(name, *args)`` returns the decoded answer or raises a StudentError.
    After the worker hangs or ends, the next call starts a fresh one (a fresh
    import), up to ``max_restarts`` times. A function that hung or ended the
    worker is not called again in this file, but the file's other functions
    still are (in a fresh process). After ``max_timeouts`` hangs in all, the remaining calls fail at
    once, so endless loops cannot stall a batch.
    """

    def __init__(self, path, *, sandbox: Sandbox | None = None, call_timeout=10.0, import_timeout=30.0,
                 max_restarts=4, max_timeouts=3, jail=None, zygote=None, describe=None):
        self.path = Path(path).resolve()
        self.describe = describe  # how a call is written in messages (see ``interpret``)
        self.own_sandbox = sandbox is None
        self.sandbox = sandbox or Sandbox(self.path.parent, jail=jail, zygote=zygote, import_timeout=import_timeout)
        self.sandbox.want(self.path.name)
        self.call_timeout, self.import_timeout = call_timeout, import_timeout
        self.restarts_left, self.timeouts_left = max_restarts, max_timeouts
        self.broken = {}  # function -> the error it ended with (a hang, or the worker ending): not called again
        self.imported = None
        self._loaded_in = None  # the worker generation our file is imported in
        self.printed = ""  # the last lines printed by the call answered last
        self.heard = None  # grading/shrinks.py's Heard while a live run is heard

    # ------------------------------------------------------------ lifecycle
    def start(self) -> Imported:
        """Import the file in the worker; the result says whether that worked and why not."""
        try:
            answer = self._load()
        except StudentError as exc:
            self.imported = Imported(False, str(exc), **self._box())
            return self.imported
        if not isinstance(answer.get("ready"), bool) or not isinstance(answer.get("functions", []), list):
            # a list is checked too: code that replaced the worker's send() could make it 5,
            # and iterating over that ended the whole batch
            self.imported = Imported(False, "the worker sent a malformed answer to the import", **self._box())
        elif answer["ready"]:
            names = [n for n in answer.get("functions", [])[:10_000] if isinstance(n, str) and len(n) <= NAME]
            self.imported = Imported(True, functions=names, **self._box())
        else:
            message = _import_message(self.path.name, answer.get("error"))
            notes = self.sandbox.notes  # a module it imports, or the file itself, may have been left out
            self.imported = Imported(False, message + "".join(f" (note: {n})" for n in notes), **self._box())
        return self.imported

    def _box(self):
        box = self.sandbox.report  # validated as it arrived (report.py)
        return {"measures": list(box.measures), "missing": list(box.missing), "protections": dict(box.protections)}

    def _load(self):
        if self.sandbox.alive and self.sandbox.files - {self.path.name}:
            self.sandbox.recycle()  # another exercise ran in this process: start afresh (see Sandbox)
        answer = self.sandbox.request({"op": "load", "file": self.path.name}, self.import_timeout,
                                     "importing your file")
        self.sandbox.files.add(self.path.name)
        self._loaded_in = self.sandbox.generation
        return answer

    def kill(self):
        if self.own_sandbox:
            self.sandbox.kill()

    close = kill

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    @property
    def output(self) -> str:
        return self.sandbox.output

    # ------------------------------------------------------------ calls
    def call(self, func, *args, **kwargs):
        """Call ``func(*args, **kwargs)`` in the worker and return the decoded answer."""
        return self._call(func, args, kwargs, after=False)[0]

    def call_full(self, func, *args, **kwargs):
        """Like ``call`` but also return the array arguments the call modified (positions, keyword
        names), as this process judges them against what it sent."""
        return self._call(func, args, kwargs, after=True)

    def _call(self, func, args, kwargs, after):
        asked = request(func, args, kwargs, after)
        self.printed = ""  # a call that hangs or ends the worker answers nothing
        try:
            self._ready(func)
        except StudentError:
            self._spoil()
            raise
        req, layout = self._placed([asked])
        try:
            msg = self.sandbox.request(dict(req[0], op="call", file=self.path.name), self.call_timeout,
                                      f"running {func}()")
            self._read_back(msg, layout[0])
        except Timeout as exc:
            self._spoil()
            self.timeouts_left -= 1
            self.broken[func] = Timeout(f"{func}() was not run again: it timed out earlier in this exercise ({exc})")
            raise
        except Crashed as exc:
            self._spoil()
            self.broken[func] = Crashed(f"{func}() was not run again: earlier in this exercise {exc}")
            raise
        except StudentError:
            self._spoil()
            raise
        if self.heard is not None:  # grading/shrinks.py: the live calls of a run and their answers
            self.heard.answered(asked, msg)
        return self.interpret(func, args, kwargs, msg)

    def _spoil(self):
        if self.heard is not None:
            self.heard.spoiled = True

    def batch(self, requests, within: float | None = None):
        """Run many calls (from ``request``) in one round trip; return the raw answers.

        The worker answers call by call, each within the call timeout, and all
        of them within ``within`` seconds if given (a time budget). One that
        times out raises BatchTimeout, with the answers before it and the
        Timeout that call alone would have raised (and, as after it, its
        function is not run again). If the worker ends or misbehaves, a
        StudentError: the caller then falls back to single calls, which say which
        one did.
        """
        broken = sorted({r.get("func") for r in requests} & set(self.broken))
        if broken:  # single calls will say so, without running it again
            raise self.broken[broken[0]]
        self._ready("the batch")
        answers = []
        deadline = None if within is None else time.monotonic() + within

        def timeout():
            return self.call_timeout if deadline is None else max(0.0, min(self.call_timeout,
                                                                           deadline - time.monotonic()))

        def doing():  # as a single call says it, so that a timeout reads the same
            return f"running {requests[len(answers)].get('func')}()" if len(answers) < len(requests) \
                else "running a batch of calls"

        sent, layout = self._placed(requests)
        try:
            msg = self.sandbox.request({"op": "batch", "file": self.path.name, "calls": sent},
                                      timeout(), doing())
            while "done" not in msg and msg.get("part") == len(answers) < len(requests) and "answer" in msg:
                self._read_back(msg["answer"], layout[len(answers)])
                answers.append(msg["answer"])
                msg = self.sandbox.more(timeout(), doing())
        except Timeout as exc:
            if len(answers) >= len(requests):
                raise
            func = requests[len(answers)].get("func")
            self.timeouts_left -= 1
            self.broken[func] = Timeout(f"{func}() was not run again: it timed out earlier in this exercise ({exc})")
            raise BatchTimeout(answers, exc) from None
        if msg.get("done") != len(requests) or len(answers) != len(requests):
            self.sandbox.kill()
            raise Crashed("the worker's answer to a batch was malformed")
        return answers

    def _placed(self, requests):
        """(the requests to send, the layout of each): the array arguments of those that ask for "after"
        laid out in the sandbox's arena (arena.py), where this process reads them back; else as they are."""
        arena = getattr(self.sandbox, "arena", None)
        if arena is None:
            return requests, [None] * len(requests)
        arena.start()
        placed = [arena.place(r) if r.get("after") is True else (r, None) for r in requests]
        return [r for r, _ in placed], [layout for _, layout in placed]

    def _read_back(self, msg, layout):
        """The arguments of one answer's call, read from the arena by this process (arena.py)."""
        if layout is not None:
            self.sandbox.arena.read(msg, layout)

    def _ready(self, func):
        if func in self.broken:
            raise self.broken[func]
        if self.timeouts_left <= 0:
            raise Timeout(f"{func}() was not run: your code timed out earlier in this exercise")
        if not self.sandbox.alive or self._loaded_in != self.sandbox.generation:
            if self.restarts_left <= 0:
                raise Crashed(f"{func}() was not run: your code ended or hung the worker too many times")
            self.restarts_left -= 1
            outcome = self.start()
            if not outcome.ready:
                raise Crashed(outcome.message)

    def interpret(self, func, args, kwargs, msg):
        """Turn one raw answer into (value, modified argument indices) or a StudentError;
        what the call printed is kept as ``printed`` until the next answer."""
        self.printed = printed_tail(msg.get("printed") if isinstance(msg, dict) else None)
        return interpret(self.path.name, func, args, kwargs, msg, self.describe)


PRINTED_LINES, PRINTED_CHARS = 8, 1_000


def printed_tail(field) -> str:
    """The last lines (at most PRINTED_LINES, PRINTED_CHARS characters) of what a call printed,
    from the answer's base64 field; "" if there is none or it is not base64 of UTF-8 text."""
    if not isinstance(field, str) or len(field) > 16_000:  # 2,000 characters of UTF-8, in base64
        return ""
    try:
        text = base64.b64decode(field, validate=True).decode("utf-8", "replace")
    except ValueError:
        return ""
    # every line break Python knows (\r, \x0b, \u2028, ...), as the report splits them
    lines = text[-PRINTED_CHARS:].splitlines()[-PRINTED_LINES:]
    return "\n".join(line[:200] for line in lines) if any(line.strip() for line in lines) else ""


def interpret(filename, func, args, kwargs, msg, describe=None):
    """One raw answer of the worker as (value, modified argument indices), or a StudentError.
    ``args`` and ``kwargs`` are the parent's own copies of what it sent: the arguments the
    worker reports after the call are compared with them here (wire.changed), never there.

    ``describe(func, *args, **kwargs)`` writes the call for the message of a raised
    exception; the graders pass their own (graders/kit/text.py), which shows arrays
    compactly. The default, ``plain_call``, needs nothing outside the sandbox.
    """
    if not isinstance(msg, dict):
        raise Crashed(f"{func}(): the worker's answer was malformed")
    if msg.get("missing"):
        raise Missing(f"{func} is not defined in {filename} (or is not a function)")
    if not msg.get("ok"):
        raise Raised(func, msg.get("error"), (describe or plain_call)(func, *args, **kwargs))
    try:
        value = wire.decode(msg.get("value"))
    except wire.ProtocolError as exc:
        raise Crashed(f"{func}() returned something that could not be read: {exc}") from None
    return value, wire.changes(args, kwargs, msg)


def plain_call(func, *args, **kwargs) -> str:
    """``f(3, axis=0)``: each argument's repr, shortened."""
    shown = [reprlib.repr(a) for a in args] + [f"{k}={reprlib.repr(v)}" for k, v in kwargs.items()]
    return f"{func}({', '.join(shown)})"


def request(func, args, kwargs, after=False) -> dict:
    """The plain-data form of one call, as the worker receives it; ``after``: the answer is to
    carry the array arguments back as they were after the call (for ``changed``), which only
    the calls that ask whether an argument changed need."""
    req = {"func": func, "args": [wire.encode(a) for a in args],
           "kwargs": {k: wire.encode(v) for k, v in kwargs.items()}}
    return dict(req, after=True) if after else req


def _import_message(filename, info):
    info = exception_info(info)
    kind, msg = info["type"], info["message"]
    where = f" at {info['where']}" if info["where"] else ""
    if kind == "SyntaxError" and "codec can't decode" in msg:  # how compile() reports bytes that are not UTF-8
        return f"{filename} is not valid UTF-8 text{where}: {msg}; save it as UTF-8"
    if kind == "SyntaxError":  # what is wrong first, then the line (so "def f(x)" never reads as "def f(x):")
        line, _, code = (info["where"] or "").partition(": ")
        return f"{filename} has a syntax error{' at ' + line if line else ''} ({msg})" + (f": {code}" if code else "")
    if kind == "UnicodeDecodeError":
        return f"{filename} is not valid UTF-8 text: {msg}"
    if kind in ("SystemExit", "KeyboardInterrupt"):
        return f"{filename} raised {kind} while being imported{where}; remove top-level exits"
    return f"importing {filename} raised {kind}{': ' + msg if msg else ''}{where}"
