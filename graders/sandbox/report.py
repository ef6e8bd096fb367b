"""What a sandbox says of itself, read once, as it arrives, into a typed report.

A sandbox's first message (the worker's greeting) carries what protects it. It comes from a
process the student's code will soon run in, so it is data to validate like any answer: lists of
short texts, flags of plain values, each cut to a bound. The parent then reads fields, never a
dict, and decides what they mean here (``isolated``), not from the sentences; ``in_words`` says
its setting in one line for a report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .wire import MESSAGE, cut

MAX_ITEMS = 20  # texts or flags of one kind
MAX_NOTES = 10
MAX_FLAG = 40  # characters of a flag's value


def _texts(value, limit: int, most: int) -> tuple:
    return tuple(cut(str(v), limit) for v in value[:most]) if isinstance(value, list) else ()


@dataclass(frozen=True)
class SandboxReport:
    """What one sandbox said of itself. Empty (false) until it has said anything."""

    measures: tuple = ()  # the protections in force, in words ("a seccomp filter: ...")
    missing: tuple = ()  # those the system could not give here, in words
    protections: dict = field(default_factory=dict)  # confine.become_student's flags: setting, files, signals, ...
    taken: tuple | None = None  # the student's files the sandbox took, where it had to choose (inside/files.py)
    notes: tuple = ()  # what it left out of the student's folder, in words
    said: bool = False

    @classmethod
    def read(cls, said) -> "SandboxReport":
        """The report in a greeting's ``sandbox`` value, whatever that value is."""
        if not isinstance(said, dict):
            return cls()
        flags = said.get("protections") if isinstance(said.get("protections"), dict) else {}
        taken = said.get("taken")
        return cls(measures=_texts(said.get("measures"), MESSAGE, MAX_ITEMS),
                   missing=_texts(said.get("missing"), MESSAGE, MAX_ITEMS),
                   protections={k: v for k, v in list(flags.items())[:MAX_ITEMS]
                                if isinstance(k, str) and isinstance(v, (bool, int, str)) and len(str(v)) < MAX_FLAG},
                   taken=tuple(str(t) for t in taken if isinstance(t, str)) if isinstance(taken, list) else None,
                   notes=tuple(str(n)[:500] for n in said["notes"][:MAX_NOTES])
                   if isinstance(said.get("notes"), list) else (), said=True)

    def __bool__(self) -> bool:
        return self.said

    @property
    def isolated(self) -> bool:
        """Whether the student's code is kept from other students and the grader: it can open no
        file but the system's and its own, and signal no process outside its sandbox."""
        return isolated(self.protections)

    def as_dict(self) -> dict:
        """What results and summaries record: {"measures", "missing", "protections"}; {} if nothing was said."""
        if not self.said:
            return {}
        return {"measures": list(self.measures), "missing": list(self.missing), "protections": dict(self.protections)}


def isolated(protections) -> bool:
    """``SandboxReport.isolated`` for flags read back from a results.json."""
    return isinstance(protections, dict) and protections.get("files") is True and protections.get("signals") is True


SETTINGS = {  # what each setting of the sandbox (inside/confine.py, become_student) keeps from your code
    "namespaces": "namespaces (private root, user nobody)",
    "user namespace": "user namespace (private root, no capabilities)",
    "own user": "own user (a uid of its own, Landlock)",
    "landlock": "landlock (reads only Python and its own files)",
    "own user without Landlock": "own user without Landlock (reads what any user can)",
    "limits only": "limits only (not isolated: it reads what you can)",
}


def in_words(protections) -> str:
    """One line of at most 80 columns for a report: the sandbox's setting, seccomp, a cgroup."""
    setting = str(protections.get("setting", "unknown"))
    extra = [w for w, on in (("seccomp", protections.get("seccomp")), ("a cgroup", protections.get("cgroup"))) if on]
    return ", ".join([f"sandbox: {SETTINGS.get(setting, setting)}", *extra])
