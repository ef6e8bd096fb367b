"""The boundary around student code: the one room to read to trust the isolation.

SECURITY.md, at the root of the repository, is its threat model: each guarantee,
the function that enforces it in each setting (namespaces, a user namespace,
Landlock, a user of its own, limits only), and the test that proves it
(tests/test_security_doc.py keeps the names true).

Inside the sandbox (started by path with ``python -I -S``: the standard
library and NumPy only, never the rest of this package):

    factory.py     the zygote process, which forks a sandbox per student
    places.py      what the zygote makes for each sandbox and removes after it: cgroup, folder, user
    inside.py      a sandbox's first process, its init, and each student process
    files.py       the student's files as the sandbox takes them: bounded, exercise files first
    cgroups.py     a cgroup per sandbox: its memory (shared memory and tmpfs included), its processes
    jail.py        with namespaces: namespaces, a private root, the scratch tmpfs
    flat.py        without namespaces: a private scratch folder and, as root, a user of its own
    confine.py     each student process: dropped privileges, limits, a seccomp filter
    landlock.py    without namespaces, last: what a student process may open
    worker.py      what runs beside a student's file: the framing, the encoding, the calls;
                   it reports what happened as plain data and decides nothing

In the grading process, the parent's side:

    zygote.py      starts the zygote; Jail and Limits say how a sandbox is made
    resident.py    the learner's zygote, which outlives a command: its socket, its key, stop
    handle.py      Worker: the parent's handle on one student's sandbox
    report.py      SandboxReport: what a sandbox says of itself, validated once, read as fields
    box.py         Box: the parent's end of a sandbox's control socket (fork, ended, status)
    clock.py       when a call has timed out: the sandbox's CPU time as /proc counts it, not a busy wall clock
    submission.py  Submission: one student file loaded in a Worker, called with plain data
    wire.py        decoding and validating every answer before anyone looks at it, and
                   deciding which array arguments a call changed, against the parent's copies
    chosen.py      ChosenRng: a generator whose normal draws are chosen, sent as an MT19937 state
    errors.py      StudentError and its kinds: Raised, Missing, Timeout, Crashed
    bounded.py     the grader's own code on a student's data (reading, comparing an exact
                   answer) in a forked process that is killed at a bound
    jobs.py        behind bounded.py: the clean helper, and the workers it forks to run jobs

May import: sandbox/ only (tests/test_layout.py holds this).
"""
