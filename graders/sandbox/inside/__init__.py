"""What runs on the sandbox's side of the boundary, loaded by path.

The zygote starts as ``python -I -S`` with factory.py, which loads its siblings
here by path under neutral names: the standard library and NumPy only, never
the rest of this package, the graders or the solutions (tests/test_layout.py
holds that none of these files imports anything of the package, and that this
folder holds exactly what factory.py loads). The parent's side imports some of
them too, for their constants and helpers (limits, the wire's framing, the
cgroup tree's clean-up).

    factory.py     the zygote process, which forks a sandbox per student
    places.py      what the zygote makes for each sandbox and removes after it: cgroup, folder, user
    init.py        a sandbox's first process, its init, and each student process
    files.py       the student's files as the sandbox takes them: bounded, exercise files first
    cgroups.py     a cgroup per sandbox: its memory (shared memory and tmpfs included), its processes
    jail.py        with namespaces: namespaces, a private root, the scratch tmpfs
    flat.py        without namespaces: a private scratch folder and, as root, a user of its own
    scratch.py     what a scratch folder may hold, measured in every setting; its removal
    confine.py     each student process: dropped privileges, limits, a seccomp filter
    landlock.py    without namespaces, last: what a student process may open
    worker.py      what runs beside a student's file: the framing, the encoding, the calls;
                   it reports what happened as plain data and decides nothing
"""
