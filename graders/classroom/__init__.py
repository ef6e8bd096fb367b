"""The instructor's tooling, a folder per job. Students never get this folder.

    grade.py        attn-grade grade: read a class in either layout, batch-grade it, then the
                    jobs below that follow a grading (nbgrader's gradebook, integrity, comments)
    nbgrader/       nbgrader's course: its submissions read, its gradebook written, its autograde kept off
    report/         attn-grade report and comment: how a class did, as one HTML page
    integrity/      signs of cheating and of copying, for a person to look at
    exports/        attn-grade export: grades for an LMS, late penalties, nbgrader's own export
    gradescope/     attn-grade gradescope: the autograder archive, and what runs in it
    release/        attn-grade release: the student bundle, and the leak scan
    authoring/      attn-grade course build, new and add: the course and its exercises from one source
    hub/            python3 tasks.py hub: the course on a JupyterHub of this machine

Each folder's __init__.py names its modules. What the batch wrote in OUT is read through
outfolder/; text is wrapped, and --help printed, by terminal/.

May import: classroom/, batch/, outfolder/, grading/, terminal/, kit/, bounded/, sandbox/ and the registry.
"""
