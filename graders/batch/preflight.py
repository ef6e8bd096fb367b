"""Before a class is graded: one sandbox, started on an empty folder, to learn what it is here.

``preflight`` tells the batch (batch.py) whether a sandbox can start at all
and whether it isolates students (graders/sandbox/sandbox.py, ``isolated``).
Where it cannot start, nobody is graded and the cause is named; where it
cannot isolate, nobody is graded unless the instructor allows it, and then
every results.json says so.
"""

from __future__ import annotations


class NoSandbox(ValueError):
    """No sandbox that can grade here (it cannot start, or cannot isolate students): not a usage error."""


def preflight(opts, say=print, keep=False) -> dict:
    """Start one sandbox before grading anybody: {"isolated": bool, "isolation": what results.json
    records}. A sandbox that cannot start, or one that cannot isolate students (unless
    ``allow_unisolated``), stops the run before any result is written (NoSandbox). ``keep``: the
    zygote that started it stays, for the job processes (graders/batch/run.py, ``_job_zygotes``);
    the caller closes it, whether this returns or raises."""
    from ..sandbox.sandbox import probe
    from ..sandbox.zygote import Limits, SandboxFailed, shared

    try:
        shared().start(sympy=False)  # the probe's sandbox needs no SymPy: it loads it after the probe
        report = probe(Limits(memory_mb=opts.memory_mb))
    except SandboxFailed as exc:
        raise NoSandbox(f"{exc}; nobody was graded") from None
    finally:
        if not keep:
            shared().close()
    flags = report.protections
    ok = report.isolated
    if not ok and not opts.allow_unisolated:
        raise NoSandbox("the sandbox cannot isolate students here: " + "; ".join(report.missing) +
                         ". Their code could read the solutions and each other's files. Grade where namespaces "
                         "or Landlock are available (see docs/isolation.md), or pass "
                         "--allow-unisolated to grade anyway (every results.json will say so)")
    if not ok:
        say("WARNING: grading without isolation (--allow-unisolated): " + "; ".join(report.missing))
    return {"isolated": ok, "isolation": {"protections": flags, "isolated": ok,
                                          "allowed_unisolated": bool(opts.allow_unisolated and not ok)}}
