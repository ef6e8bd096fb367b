"""The graders of the self-attention exercises, and the ``attn-grade`` command.

    registry.py        the exercises, in teaching order (the one list every tool reads)
    <slug>.py          the public checks of each exercise
    hidden/<slug>.py   its hidden checks (they compare with the reference solution, or exact answers)
    kit/               what a grader is written with
    grading/           grading one file and a notebook's answer: what check and the batch share
    batch/             grading a whole class, on one machine or a Dask cluster (instructors only)
    outfolder/         what a batch writes in OUT, and how every command reads it back
    terminal/          how wide a line may be and where it breaks; --help
    bounded/           the grader's own code on a student's data, killed at a bound
    sandbox/           the boundary around student code (sandbox/inside/: what runs on its side)
    hints/<slug>.md    its hints, one at a time (attn-grade hint), each naming a lesson section
    variants/<slug>.txt  the digests of its variants' values, where its numbers vary (kit/variants.py)
    classroom/         the instructor's tooling, a folder per job: nbgrader, the report, integrity,
                       exports, Gradescope, the release and its leak scan, authoring, a hub
    cli/               the attn-grade command, one module per verb (check, watch, hint, list, ...)

Imports point one way: cli -> classroom -> batch -> outfolder -> grading -> kit -> bounded -> sandbox;
terminal/ imports nothing of the package, and grading/ and the rooms above it may import it.
A per-exercise grader imports only kit/; a hidden grader imports kit/ and its
public twin; sandbox/ imports nothing else of this package, and sandbox/inside/
nothing of it at all (tests/test_layout.py holds these rules).
"""

import sys

if sys.version_info < (3, 10):  # written so that older Pythons can still read this file and say so
    sys.exit("attn-grade needs Python 3.10 or newer; this is Python %d.%d (%s). Install a newer Python, "
             "then run 'python3 tasks.py setup' with it." % (sys.version_info[0], sys.version_info[1],
                                                            sys.executable))
