"""Grading: one exercise file, a notebook's answer, one student's folder (a whole class: batch/).

    engine.py    grade one file: every check of its grader, against the sandboxed file
    plans.py     record a check once against the reference, replay it for every student
    shrinks.py   a live run that failed, kept by the answers that led to it, for the next such file
    plancache.py recorded plans on disk, keyed by all they depend on, out of any sandbox's sight
    prepare.py   every plan recorded ahead, so a learner's first check finds them (attn-grade prepare)
    private.py   the user's own files, written whole: 0600 in folders 0700 (imports no NumPy)
    planfile.py  the file format of a plan: tagged JSON that keeps every value's exact type
    behaviour.py what a file's answers to the recorded calls do, as a signature (for the class report)
    results.py   what a grade is (a result per check), and Gradescope's results.json shape
    report.py    the text report that attn-grade check and show print
    budget.py    time budgets for one exercise file and one student
    notebook.py  the checks inside a Jupyter kernel: what the nbgrader test cells call
    answer.py    the notebook's answer cell those checks grade, read as the real grading reads it
    sources.py   what every grade depends on besides the student's files: the code, as a digest
    settings.py  Settings: what the environment chooses (every ATTN_* variable), read once where a
                 command starts and passed down
    folder.py    Folder: one student's folder graded in its sandbox, the one way check, the batch
                 and the Gradescope runner grade a student
    sandboxes.py what the commands (cli/) need of the sandbox room: the learner's zygote, its words

Students get all of this folder (classroom/release/public.py): ``attn-grade check`` needs it.

May import: grading/, kit/, bounded/, sandbox/ and the registry.
"""
