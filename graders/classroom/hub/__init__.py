"""A JupyterHub of this machine running the course (``python3 tasks.py hub``).

Root makes throwaway accounts for a grader and students, the course as the grader's, and
JupyterHub's proxy; everything made is removed by the same command.

    hub.py            python3 tasks.py hub: the course on a JupyterHub of this machine, started and
                      removed
    hubsetup.py       what that hub needs, made by root: its names (HubLayout), commands as its users,
                      its folders
    hubusers.py       its throwaway Unix accounts, made and removed (only those made here)
    hubenvs.py        the Pythons its servers run, kept in a cache; JupyterHub's proxy, installed with
                      npm
    hubcourse.py      the grader account's copy of the course: built, the roster imported, the hub's
                      settings

May import: its own folder, terminal/ (the hub's own packages are imported where they run).
"""
