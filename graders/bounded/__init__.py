"""The grader's own code on a student's data, killed at a bound.

Reading and comparing an exact answer is trusted code, but what it costs is the
student's choice (SymPy's big-integer arithmetic, in C, where no signal
reaches). This is not the boundary around student code (that is sandbox/): it
keeps the grader's own work on untrusted data from blowing up in time or memory.

    helper.py      run: a job in a runner forked from a clean helper process, killed at its bound
    jobs.py        behind helper.py: the clean helper, and the runners it forks to run jobs

May import: bounded/ and sandbox/ (for the sandbox's process helpers).
"""
