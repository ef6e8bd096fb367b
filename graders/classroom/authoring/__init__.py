"""Authoring: a course and its exercises, generated from one source.

``attn-grade course build`` makes the nbgrader course from exercises/, solutions/, the graders and
course/; ``course new`` and ``course add`` write a new exercise's files, or a new function's.

    course.py         attn-grade course build: the nbgrader course, generated from one source
    nbmake.py         the notebook of one exercise, made from its stub, solution, checks and texts
    scaffold.py       attn-grade course new: the files of a new exercise, to fill in
    scaffoldadd.py    attn-grade course add: more functions for an exercise that exists
    scaffoldtext.py   the text both write: templates of stubs, checks, hints, contract lines
    coursescaffold.py the command lines of course new and course add

May import: its own folder, classroom/release/, grading/, terminal/ and the registry.
"""
