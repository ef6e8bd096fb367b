"""What the commands (cli/) use of the sandbox room, named for them: the commands talk to
grading, and this is the one door through which what they need of the sandbox passes.

The sandbox room (graders/sandbox/, SECURITY.md) stays the one place that isolates student code;
nothing here weakens or bypasses it. A learner's commands fork their sandboxes from a zygote,
the resident one that outlives them or their own (``learner_zygote``); the words that say what
protected a sandbox, the limits of what a sandbox takes of a folder, and the error raised when
no sandbox can start are the sandbox's own.
"""

from __future__ import annotations

from pathlib import Path

from ..sandbox.inside.files import MAX_FILE_BYTES, MAX_FILES  # noqa: F401 - what a sandbox takes of a folder


def __getattr__(name):
    """NOT_WRITTEN (the message of a stub's untouched function) and SandboxFailed (no sandbox could
    start: the grader's failure), loaded when first asked for: sandbox/errors.py brings NumPy (about
    0.15 s), which attn-grade list and hint never need."""
    if name == "NOT_WRITTEN":
        from ..sandbox.errors import NOT_WRITTEN

        return NOT_WRITTEN
    if name == "SandboxFailed":
        from ..sandbox.zygote import SandboxFailed

        return SandboxFailed
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def learner_zygote(runtime: Path | None):
    """The zygote a learner's command forks its sandboxes from: the resident one whose socket is
    in ``runtime`` (a Settings' ``resident_runtime``), or, with None, one of the command's own."""
    from ..sandbox.resident import learner

    return learner(runtime)


def is_resident(zygote) -> bool:
    """Whether ``zygote`` outlives the command (it then ends only the command's sandboxes)."""
    from ..sandbox.resident import Resident

    return isinstance(zygote, Resident)


def start_resident(runtime: Path | None) -> None:
    """Start the resident zygote whose socket is in ``runtime`` (NumPy and SymPy loaded, waiting
    for a command for resident.IDLE seconds) unless it is there. Where none can be had (``runtime``
    None, a folder that is not safe), nothing: each command starts its own."""
    from ..sandbox.resident import Resident
    from ..sandbox.zygote import ZygoteError

    zygote = learner_zygote(runtime)
    if not isinstance(zygote, Resident):
        return
    try:
        zygote.start(sympy=True)
    except (OSError, ZygoteError):
        pass
    finally:
        zygote.close()


def stop_resident(runtime: Path) -> int:
    """End the resident zygotes whose sockets are in ``runtime``; how many were asked to end."""
    from ..sandbox.resident import folder, stop

    return stop(folder(runtime))


def protections_in_words(protections: dict) -> str:
    """One line saying what protected the student's code (a sandbox report's ``protections``)."""
    from ..sandbox.sandbox import in_words

    return in_words(protections)


def die_with_parent(parent: int) -> None:
    """Be killed when process ``parent`` ends (kill -9 included): a forked lane of a command."""
    from ..sandbox.inside.confine import die_with_parent as die

    die(parent=parent)
