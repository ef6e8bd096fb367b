"""Integrity: signs of cheating and of copying, for a person to look at (they change no score).

Flags go to OUT/integrity.json, and the evidence of copying to OUT/copying.json, for the class
report; a student's code is read, never run, within bounds.

    integrity.py      signs of cheating the hardened grader defeated, for a person to look at
    copying.py        signs of copying: shared rare wrong behaviour, identical answers, code alike
    identical.py      which identical answers are a sign: never a stub, nor a right answer the
                      exercise forces
    codematch.py      code the same up to names and layout: copydetect's winnowing, in a bounded child
    codescan.py       what integrity.py reads in a student's code, never running it, within bounds

May import: its own folder, classroom/authoring/, classroom/nbgrader/, classroom/report/,
outfolder/, kit/, sandbox/ and the registry.
"""
