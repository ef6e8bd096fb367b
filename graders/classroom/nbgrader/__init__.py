"""nbgrader: its course, read and written with care.

Reads nbgrader's submitted/ folder without running a cell, puts our scores into its gradebook and
autograded/ notebooks, keeps its own unprotected autograde off, and shows math offline.

    nbsubmit.py       nbgrader's submitted/ layout: take the answer cells out, never run them
    nbgradebook.py    put our scores into an nbgrader course's gradebook and autograded/ notebooks,
                      with care
    nbmanual.py       what a person did or is to do there: their scores kept, undecided checks asked
                      of them
    nbfill.py         what nbgrader's converter gets instead of a kernel run: our results, stand-in
                      pages
    nbguard.py        keeps nbgrader's own (unprotected) autograde off the course
    mathpages.py      math in formgrader's pages and the feedback files, offline (templates/: its
                      macro)
    nbextend.py       attn-grade extend: the late submissions, and an extension for one student

May import: its own folder, classroom/exports/, batch/, outfolder/, grading/, terminal/, kit/ and
the registry.
"""
