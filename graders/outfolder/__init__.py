"""The OUT folder: what ``attn-grade grade`` writes there, and how every command reads it back.

    outfiles.py  the layout (students/<id>/results.json, gradebook.csv, .sources/), written
                 atomically and owner-only (or shared with a group), one writer at a time (a lock)

The batch (batch/) writes OUT; the instructor's commands (classroom/: report, export, comment,
integrity, nbgrader's gradebook) read it and write beside it. The format lives here, below both,
so neither has to reach into the other. Students never get this folder.

May import: outfolder/, grading/, kit/ and the registry.
"""
