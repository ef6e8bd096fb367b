"""The class report: how a class did, and an instructor's comments.

``attn-grade report`` writes OUT/report.html (scores, item analysis, known mistakes, signs of copying,
plots), ``attn-grade comment`` one comment for every student whose answers behave alike.

    analysis.py       how a class did: item analysis, known mistakes, errors by cause
    groups.py         an exercise's submissions grouped by what their answers do
                      (grading/behaviour.py)
    comments.py       attn-grade comment: one instructor's comment for every member of a group
    classreport.py    attn-grade report: the class as one self-contained HTML file with plots
    classstudents.py  its table of students and their feedback
    roster.py         the students' names for it: an nbgrader course's, --roster FILE or
                      OUT/roster.csv

May import: its own folder, classroom/integrity/, classroom/exports/, batch/, outfolder/, grading/,
terminal/, kit/ and the registry.
"""
