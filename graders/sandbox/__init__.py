"""The boundary around student code: the one room to read to trust the isolation.

SECURITY.md, at the root of the repository, is its threat model: each guarantee,
the function that enforces it in each setting (namespaces, a user namespace,
Landlock, a user of its own, limits only), and the test that proves it
(tests/test_security_doc.py keeps the names true).

inside/: what runs on the sandbox's side (started by path with ``python -I -S``:
the standard library and NumPy only, never the rest of this package; its
__init__.py lists the files).

In the grading process, the parent's side:

    zygote.py      starts the zygote; Jail and Limits say how a sandbox is made
    resident.py    the learner's zygote, which outlives a command: its socket, its key, stop
    sandbox.py     Sandbox: the parent's handle on one student's sandbox
    report.py      SandboxReport: what a sandbox says of itself, validated once, read as fields; its setting in words
    box.py         Box: the parent's end of a sandbox's control socket (fork, ended, status)
    clock.py       when a call has timed out: the sandbox's CPU time as /proc counts it, not a busy wall clock
    submission.py  Submission: one student file loaded in a Sandbox, called with plain data
    arena.py       Arena: memory shared with the worker, where the parent reads a call's arguments back
    wire.py        decoding and validating every answer before anyone looks at it, and
                   deciding which array arguments a call changed, against the parent's copies
    chosen_rng.py  ChosenRng: a generator whose normal draws are chosen, sent as an MT19937 state
    errors.py      StudentError and its kinds: Raised, Missing, Timeout, Crashed; why a process ended

The grader's own code run on a student's data within bounds is not isolation:
it lives in graders/bounded/.

May import: sandbox/ only (tests/test_layout.py holds this).
"""
