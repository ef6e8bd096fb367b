"""Exports: the grades, for an LMS or nbgrader's own export.

Grades per assignment (Canvas's CSV, or plain), with the hand marks of an nbgrader course in and
the late penalty worked out on the current score; never a grade that waits for a person.

    export.py         attn-grade export: grades per assignment for an LMS (Canvas's CSV, or plain)
    nbscores.py       the grades an nbgrader course gives (hand marks in, less the late penalty), for
                      export
    nblate.py         the late penalty worked out on the current score, for both exports (nbgrader's
                      too)
    coursegrades.py   with --nbgrader-course, the course's grades beside its automatic points, and
                      lateness

May import: its own folder, classroom/report/, outfolder/, grading/, terminal/ and the registry.
"""
