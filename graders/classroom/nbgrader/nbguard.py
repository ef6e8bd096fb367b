"""Keep nbgrader's own autograde, and formgrader's Autograde button, off this course.

nbgrader's autograde runs a student's notebook and the test cells in one
kernel, so a notebook can patch NumPy or the checks and fake a pass
(tests/test_nbgrade.py keeps one that does). This course is autograded by
``attn-grade grade --nbgrader-course``, which never runs a notebook. The
course's nbgrader_config.py puts ``RefuseUnhardened`` in place of nbgrader's
Execute step; attn-grade's own path replaces it with our results
(nbgradebook.py). The command ``nbgrader autograde`` is refused before it
starts (``refuse_command``, called by that config), so that the refusal is all
the instructor reads; formgrader's button meets ``RefuseUnhardened``. Setting
ATTN_UNHARDENED=1 lets nbgrader run as it would, to compare the two (the tests
and bench/notebooks.py do).
"""

from __future__ import annotations

import os
import sys

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from ...grading.settings import Settings

MESSAGE = ("this course is autograded by 'attn-grade grade SUBMITTED --out OUT --nbgrader-course COURSE', "
           "which grades each answer cell in a sandbox where a student's code cannot patch the checks. "
           "nbgrader's own autograde (and formgrader's Autograde button) would run the notebooks unprotected, "
           "so it is turned off here; set ATTN_UNHARDENED=1 to run it anyway, to compare")


def refuse_command(argv=None, environ=None) -> None:
    """End ``nbgrader autograde`` (not its --help) with MESSAGE and exit status 1, before any
    notebook is touched: refused inside the converter, the words come after a long traceback."""
    argv, environ = sys.argv if argv is None else argv, os.environ if environ is None else environ
    if Settings.from_environ(environ).unhardened or len(argv) < 2 or "nbgrader" not in os.path.basename(
            os.path.dirname(argv[0]) if argv[0].endswith("__main__.py") else argv[0]):
        return
    if argv[1] == "autograde" and not {"-h", "--help", "--help-all"} & set(argv[2:]):
        raise SystemExit(f"nbgrader autograde: {MESSAGE}.")


class UnhardenedAutograde(RuntimeError):
    pass


class RefuseUnhardened(Preprocessor):
    """In place of nbgrader's Execute: refuse, naming the hardened command (unless ATTN_UNHARDENED=1)."""

    enabled = Bool(True)

    def preprocess(self, nb, resources):
        if Settings.from_environ().unhardened:
            from nbgrader.preprocessors import Execute

            return Execute(parent=self.parent, config=self.config).preprocess(nb, resources)
        raise UnhardenedAutograde(MESSAGE)
