"""Grading: one exercise file, a notebook's answer, and a whole class.

    engine.py    grade one file: every check of its grader, against the sandboxed file
    plans.py     record a check once against the reference, replay it for every student
    plancache.py recorded plans on disk, keyed by all they depend on, out of any sandbox's sight
    planfile.py  the file format of a plan: tagged JSON that keeps every value's exact type
    results.py   what a grade is (a result per check), and Gradescope's results.json shape
    report.py    the text report that attn-grade check and show print
    notebook.py  the checks inside a Jupyter kernel: what the nbgrader test cells call
    batch.py     grade a class in parallel sandboxes; results.json and gradebook.csv
                 (instructors only: students never get it)

May import: grading/, kit/, sandbox/ and the registry.
"""
