"""The instructor's tooling. Students never get this folder.

    grade.py        attn-grade grade: read a class in either layout, batch-grade it
    helptext.py     how the instructor's commands print --help (wrapped description, examples as written)
    nbsubmit.py     nbgrader's submitted/ layout: take the answer cells out, never run them
    nbgradebook.py  put our scores into an nbgrader course's gradebook and autograded/ notebooks, with care
    nbmanual.py     what a person did or is to do there: their scores kept, undecided checks asked of them
    nbfill.py       what nbgrader's converter gets instead of a kernel run: our results, stand-in pages
    nbguard.py      keeps nbgrader's own (unprotected) autograde off the course
    mathpages.py    math in formgrader's pages and the feedback files, offline (templates/: its macro)
    course.py       attn-grade course build: the nbgrader course, generated from one source
    nbmake.py       the notebook of one exercise, made from its stub, solution, checks and texts
    scaffold.py     attn-grade course new: the files of a new exercise, to fill in
    scaffoldadd.py  attn-grade course add: more functions for an exercise that exists
    scaffoldtext.py the text both write: templates of stubs, checks, hints, contract lines
    coursescaffold.py  the command lines of course new and course add
    integrity.py    signs of cheating the hardened grader defeated, for a person to look at
    copying.py      signs of copying: shared rare wrong behaviour, identical answers, code alike
    identical.py    which identical answers are a sign: never a stub, nor a right answer the exercise forces
    codematch.py    code the same up to names and layout: copydetect's winnowing, in a bounded child
    codescan.py     what integrity.py reads in a student's code, never running it, within bounds
    analysis.py     how a class did: item analysis, known mistakes, errors by cause
    groups.py       an exercise's submissions grouped by what their answers do (grading/behaviour.py)
    comments.py     attn-grade comment: one instructor's comment for every member of a group
    classreport.py  attn-grade report: all of that as one self-contained HTML file with plots
    classstudents.py  its table of students and their feedback
    roster.py       the students' names for it: an nbgrader course's, --roster FILE or OUT/roster.csv
    coursegrades.py with --nbgrader-course, the course's grades beside its automatic points, and lateness
    export.py       attn-grade export: grades per assignment for an LMS (Canvas's CSV, or plain)
    nbscores.py     the grades an nbgrader course gives (hand marks in, less the late penalty), for export
    nblate.py       the late penalty worked out on the current score, for both exports (nbgrader's too)
    nbextend.py     attn-grade extend: the late submissions, and an extension for one student
    gradescope.py   attn-grade gradescope: a Gradescope autograder archive, and what runs in it
    gsresults.py    its results.json: what a student sees, and when
    pins.py         what the archive installs: requirements.txt, every dependency pinned as installed here; setup.sh
    owner_only.py   what run_autograder does first: the solutions, hidden checks and plans made owner-only
    public.py       what students get of the package (copy_public)
    release.py      attn-grade release: the student bundle
    needles.py      what the leak scan searches for: solutions, exact answers, hidden checks
    leaks.py        the leak scan of a bundle or release
    hub.py          python3 tasks.py hub: the course on a JupyterHub of this machine, started and removed
    hubsetup.py     what that hub needs, made by root: its names (Layout), commands as its users, its folders
    hubusers.py     its throwaway Unix accounts, made and removed (only those made here)
    hubenvs.py      the Pythons its servers run, kept in a cache; JupyterHub's proxy, installed with npm
    hubcourse.py    the grader account's copy of the course: built, the roster imported, the hub's settings

May import: classroom/, grading/, kit/, bounded/, sandbox/ and the registry.
"""
