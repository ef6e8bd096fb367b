"""Gradescope: the autograder archive, and what runs in it.

``attn-grade gradescope`` writes the archive Gradescope installs; inside it, run_autograder grades
with the same sandboxed path as the batch and writes what a student sees.

    gradescope.py     attn-grade gradescope: a Gradescope autograder archive, and what runs in it
    gsresults.py      its results.json: what a student sees, and when
    pins.py           what the archive installs: requirements.txt, every dependency pinned as
                      installed here; setup.sh
    owner_only.py     what run_autograder does first: the solutions, hidden checks and plans made
                      owner-only

May import: its own folder, classroom/nbgrader/, classroom/release/, outfolder/, grading/ and the
registry.
"""
